package kuberecords

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"

	"github.com/strata-iac/strata/internal/atomicfile"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// HeldPlan returns a held plan, its files written out under Config.Dir
// (Held.Dir) for tofu to apply and people to read.
func (s *Store) HeldPlan(ctx context.Context, client, env, stack, id string) (approval.Held, error) {
	if err := approval.ValidID(id); err != nil {
		return approval.Held{}, fmt.Errorf("read held plan of stack %s: %w", stack, err)
	}
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	sec, err := s.client.CoreV1().Secrets(s.namespace).Get(ctx, planName(client, env, stack, id), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, approval.ErrNoHeldPlan)
	}
	if err != nil {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	if s.dir == "" {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, errNoDir)
	}
	h, err := s.held(ctx, sec)
	if err != nil {
		return h, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	return h, nil
}

// HeldPlans lists a stack's held plans, newest first. Their files are
// written out when the Store has a Dir; without one (a command that only
// lists or approves) they are not read, and Held.Dir is "".
func (s *Store) HeldPlans(ctx context.Context, client, env, stack string) ([]approval.Held, error) {
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
	}
	sel := k8slabels.SelectorFromSet(map[string]string{labelRecord: recordPlan, labelStackHash: stackHash(client, env, stack)})
	list, err := s.client.CoreV1().Secrets(s.namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
	}
	var out []approval.Held
	for _, sec := range list.Items {
		h, err := s.held(ctx, &sec)
		if err != nil {
			return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
		}
		if h.Client == client && h.Env == env && h.Stack == stack {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b approval.Held) int { return b.HeldAt.Compare(a.HeldAt) })
	return out, nil
}

// held reads a held plan's Secret and, when the Store has a Dir, its
// parts, and writes its files out there.
func (s *Store) held(ctx context.Context, sec *corev1.Secret) (approval.Held, error) {
	var h approval.Held
	if err := json.Unmarshal(sec.Data[heldKey], &h); err != nil {
		return h, fmt.Errorf("decode %s: %w", sec.Name, err)
	}
	if s.dir == "" {
		return h, nil
	}
	var ref payloadRef
	if err := json.Unmarshal(sec.Data[payloadKey], &ref); err != nil {
		return h, fmt.Errorf("decode %s: %w", sec.Name, err)
	}
	parts := make([][]byte, ref.Parts)
	for i := range parts {
		p, err := s.client.CoreV1().Secrets(s.namespace).Get(ctx, partName(sec.Name, i), metav1.GetOptions{})
		if err != nil {
			return h, fmt.Errorf("read part %d of %s: %w", i, sec.Name, err)
		}
		parts[i] = p.Data[partKey]
	}
	files, err := unpack(parts, ref.SHA256)
	if err != nil {
		return h, fmt.Errorf("read %s: %w", sec.Name, err)
	}
	h.Dir, err = s.writeOut(h, files)
	return h, err
}

// errNoDir is a held plan read or held by a Store without a Dir.
var errNoDir = errors.New("the cluster records were given no local directory for held plans")

// writeOut writes a held plan's files to <Dir>/<client>/<env>/<stack>/<id>/
// and returns that directory.
func (s *Store) writeOut(h approval.Held, files []file) (string, error) {
	if s.dir == "" {
		return "", errNoDir
	}
	dir, err := statedir.Join(s.dir, h.Client, h.Env, h.Stack, h.PlanID)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, f := range files {
		if filepath.Base(f.name) != f.name {
			return "", fmt.Errorf("held plan %s has a file named %q", h.PlanID, f.name)
		}
		if err := atomicfile.Write(filepath.Join(dir, f.name), f.data, 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}
