package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/strata-iac/strata/internal/atomicfile"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// Files of a held plan.
const (
	PlanFile     = "plan.tfplan"
	JSONFile     = "plan.json"
	SummaryFile  = "summary.md"
	approvalFile = "approval.json"
	heldFile     = "held.json"
)

// Store keeps held plans and approvals under one directory:
// <dir>/<client>/<env>/<stack>/<plan id>/.
type Store struct {
	dir string
}

// New returns a store rooted at dir.
func New(dir string) *Store { return &Store{dir: dir} }

// Held describes a held plan.
type Held struct {
	Client string    `json:"client"`
	Env    string    `json:"environment"`
	Stack  string    `json:"stack"`
	PlanID string    `json:"planId"`
	Cause  string    `json:"cause,omitempty"`
	Reason string    `json:"reason"`
	HeldAt time.Time `json:"heldAt"`
	// Dir holds the plan file, its JSON and its summary.
	Dir string `json:"-"`
}

// Approval is a person's approval of one exact plan.
type Approval struct {
	Client     string    `json:"client"`
	Env        string    `json:"environment"`
	Stack      string    `json:"stack"`
	PlanID     string    `json:"planId"`
	By         string    `json:"by"`
	Reason     string    `json:"reason"`
	ApprovedAt time.Time `json:"approvedAt"`
}

// ErrNoHeldPlan is returned when a plan id names no held plan.
var ErrNoHeldPlan = errors.New("no held plan")

// Request is a person's approval of one held plan of a stack, before it
// is checked and recorded.
type Request struct {
	Stack  string
	PlanID string
	// Reason says why the plan may be applied and By who approves; both
	// are required.
	Reason string
	By     string
	// At is when the plan was approved; now when zero.
	At time.Time
}

// Errors of an approval that a caller branches on.
var (
	// ErrBadApproval is a request that lacks a field or names no valid
	// plan id.
	ErrBadApproval = errors.New("invalid approval")
	// ErrUnknownStack is a stack that is not in the environment and has no
	// held plan either.
	ErrUnknownStack = errors.New("unknown stack")
)

// planDir is the directory of a held plan; names that are not single path
// elements are an error, so nothing lands outside the store.
func (s *Store) planDir(client, env, stack, id string) (string, error) {
	return statedir.Join(s.dir, client, env, stack, id)
}

// Hold keeps a plan: the plan file is copied, so later plans of the stack
// cannot overwrite it.
func (s *Store) Hold(ctx context.Context, h Held, planFile string, planJSON []byte, summary string) (Held, error) {
	if err := ctx.Err(); err != nil {
		return h, err
	}
	if err := ValidID(h.PlanID); err != nil {
		return h, fmt.Errorf("hold plan of stack %s: %w", h.Stack, err)
	}
	fail := func(err error) (Held, error) {
		return h, fmt.Errorf("hold plan %s of stack %s: %w", h.PlanID, h.Stack, err)
	}
	dir, err := s.planDir(h.Client, h.Env, h.Stack, h.PlanID)
	if err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	if err := copyFile(planFile, filepath.Join(dir, PlanFile)); err != nil {
		return fail(err)
	}
	if err := atomicfile.Write(filepath.Join(dir, JSONFile), planJSON, 0o600); err != nil {
		return fail(err)
	}
	if err := atomicfile.Write(filepath.Join(dir, SummaryFile), []byte(summary), 0o600); err != nil {
		return fail(err)
	}
	b, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return fail(err)
	}
	if err := atomicfile.Write(filepath.Join(dir, heldFile), b, 0o600); err != nil {
		return fail(err)
	}
	h.Dir = dir
	return h, nil
}

// HeldPlan returns a held plan.
func (s *Store) HeldPlan(ctx context.Context, client, env, stack, id string) (Held, error) {
	if err := ValidID(id); err != nil {
		return Held{}, fmt.Errorf("read held plan of stack %s: %w", stack, err)
	}
	dir, err := s.planDir(client, env, stack, id)
	if err != nil {
		return Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	var h Held
	if err := readJSON(ctx, filepath.Join(dir, heldFile), &h); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return h, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, ErrNoHeldPlan)
		}
		return h, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	h.Dir = dir
	return h, nil
}

// HeldPlans lists a stack's held plans, newest first.
func (s *Store) HeldPlans(ctx context.Context, client, env, stack string) ([]Held, error) {
	dir, err := statedir.Join(s.dir, client, env, stack)
	if err != nil {
		return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
	}
	var out []Held
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		h, err := s.HeldPlan(ctx, client, env, stack, e.Name())
		if errors.Is(err, ErrNoHeldPlan) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	slices.SortFunc(out, func(a, b Held) int { return b.HeldAt.Compare(a.HeldAt) })
	return out, nil
}

// Approve records an approval of a held plan. The plan must be held.
func (s *Store) Approve(ctx context.Context, a Approval) error {
	h, err := s.HeldPlan(ctx, a.Client, a.Env, a.Stack, a.PlanID)
	if err != nil {
		return fmt.Errorf("approve: %w", err)
	}
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
	}
	if err := atomicfile.Write(filepath.Join(h.Dir, approvalFile), b, 0o600); err != nil {
		return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
	}
	return nil
}

// Approved returns the approval of a plan id, if there is one.
func (s *Store) Approved(ctx context.Context, client, env, stack, id string) (Approval, bool, error) {
	if ValidID(id) != nil {
		return Approval{}, false, nil
	}
	var a Approval
	dir, err := s.planDir(client, env, stack, id)
	if err != nil {
		return a, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	err = readJSON(ctx, filepath.Join(dir, approvalFile), &a)
	if errors.Is(err, os.ErrNotExist) {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	return a, true, nil
}

// Pending returns the stack's approvals whose plan has not been applied:
// an approval for an id other than the fresh plan's is stale.
func (s *Store) Pending(ctx context.Context, client, env, stack string) ([]Approval, error) {
	held, err := s.HeldPlans(ctx, client, env, stack)
	if err != nil {
		return nil, err
	}
	var out []Approval
	for _, h := range held {
		a, ok, err := s.Approved(ctx, client, env, stack, h.PlanID)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, a)
		}
	}
	return out, nil
}

// Release removes a held plan once it was applied, or once the stack's
// plan moved on, so that an old approval can never apply later.
func (s *Store) Release(ctx context.Context, client, env, stack, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := ValidID(id); err != nil {
		return err
	}
	dir, err := s.planDir(client, env, stack, id)
	if err != nil {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	return nil
}

// MinPrefix is how much of a plan id spec.approvePlan must give to name
// the plan by a prefix of its id: "plan-" and four hex digits.
const MinPrefix = len("plan-") + 4

// Names reports whether a Terraform object's spec.approvePlan names the
// plan id: the whole id, or a prefix of it of at least MinPrefix
// characters, as the Tofu Controller approves a pending plan by a prefix
// of its id (it takes any prefix, so that "plan-" alone would approve
// every plan; strata wants four of its hex digits).
func Names(approvePlan, id string) bool {
	return approvePlan == id || len(approvePlan) >= MinPrefix && strings.HasPrefix(id, approvePlan)
}

// ValidID checks that id has the form of a plan id, "plan-" and hex
// digits, which is also safe as a file name.
func ValidID(id string) error {
	rest, ok := strings.CutPrefix(id, "plan-")
	if !ok || rest == "" || strings.Trim(rest, "0123456789abcdef") != "" {
		return fmt.Errorf("invalid plan id %q: a plan id looks like plan-0123456789ab", id)
	}
	return nil
}

func readJSON(ctx context.Context, path string, v any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	b, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	return atomicfile.Write(dst, b, 0o600)
}
