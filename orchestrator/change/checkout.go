package change

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Checkout is the repository at a base revision, laid out in a temporary
// directory.
type Checkout struct {
	// Ref is the revision as the user named it; Commit the commit it is.
	Ref, Commit string
	// Dir is the checkout's root.
	Dir string

	repo string
	tmp  string
	// admin is git's record of the linked work tree
	// (.git/worktrees/<name>), "" when it could not be read.
	admin string
}

// git runs git in dir and returns its standard output, trimmed.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitRaw(ctx, dir, args...)
	return strings.TrimSpace(out), err
}

// gitRaw runs git in dir and returns its standard output as git wrote it.
func gitRaw(ctx context.Context, dir string, args ...string) (string, error) {
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "-c", "core.hooksPath=" + os.DevNull}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	// The user's git environment must not point git at another
	// repository or index.
	cmd.Env = slicesWithout(os.Environ(), "GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=")
	// Stopped, git and the gits it runs (worktree add runs a checkout)
	// end together: one left running would hold the output pipes open.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 500 * time.Millisecond
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("git %s: stopped (%w)", strings.Join(args, " "), context.Cause(ctx))
		}
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out.String(), nil
}

// slicesWithout drops the variables with the given prefixes.
func slicesWithout(env []string, prefixes ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		drop := false
		for _, p := range prefixes {
			if strings.HasPrefix(kv, p) {
				drop = true
			}
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// RepoRoot returns the root of the git work tree that holds dir.
func RepoRoot(ctx context.Context, dir string) (string, error) {
	root, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("find the repository of %s: %w (run strata in a git work tree, or name an environment in one)", dir, err)
	}
	return filepath.Clean(root), nil
}

// CheckoutBase lays out the repository whose work tree is root at ref, in
// a new temporary directory, as a detached linked work tree: from git's
// objects, leaving root's files, index and HEAD as they are. Close removes
// it. It is PrepareBase and Add, for a caller with nothing to register in
// between.
func CheckoutBase(ctx context.Context, root, ref string) (*Checkout, error) {
	co, err := PrepareBase(ctx, root, ref)
	if err != nil {
		return nil, err
	}
	if err := co.Add(ctx); err != nil {
		return nil, err
	}
	return co, nil
}

// PrepareBase resolves ref to a commit of the repository whose work tree
// is root and makes the temporary directory its checkout goes in, without
// laying it out: Abandon already removes whatever Add will have made, so
// a process ended while git lays it out can still remove it.
func PrepareBase(ctx context.Context, root, ref string) (*Checkout, error) {
	commit, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil || commit == "" {
		return nil, fmt.Errorf("check out base %s: %s names no commit of %s (fetch it first, for example git fetch origin main, and check out with history: fetch-depth 0)", ref, ref, root)
	}
	common, err := git(ctx, root, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return nil, fmt.Errorf("check out base %s: %w", ref, err)
	}
	tmp, err := os.MkdirTemp("", "strata-base-")
	if err != nil {
		return nil, fmt.Errorf("check out base %s: %w", ref, err)
	}
	// git names its record of a linked work tree after the directory's
	// base name; one as unique as the temporary directory's makes that
	// record's path known before git writes it.
	name := filepath.Base(tmp)
	return &Checkout{Ref: ref, Commit: commit, Dir: filepath.Join(tmp, name), repo: root, tmp: tmp,
		admin: filepath.Join(common, "worktrees", name)}, nil
}

// Add lays out the prepared checkout. On an error, what it made is
// removed, git's record of it included.
func (c *Checkout) Add(ctx context.Context) error {
	if _, err := git(ctx, c.repo, "worktree", "add", "--detach", "--quiet", c.Dir, c.Commit); err != nil {
		// Stopped midway, git leaves its record locked
		// ("initializing"), which only a double force would remove:
		// Abandon removes it without running git, which has failed or
		// been stopped.
		c.Abandon()
		return fmt.Errorf("check out base %s: %w", c.Ref, err)
	}
	// The linked work tree's .git file names git's record of it, in case
	// git had to name it otherwise.
	if b, err := os.ReadFile(filepath.Join(c.Dir, ".git")); err == nil {
		if admin, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok && filepath.IsAbs(admin) {
			c.admin = admin
		}
	}
	return nil
}

// Abandon removes the checkout and git's record of it without running
// git, for a process that must end now (a forced exit after a signal):
// what Close does, in the time of two directory removals. What git would
// have checked before removing it (a lock, a running checkout) is not
// checked; the process is ending.
func (c *Checkout) Abandon() {
	if c.admin != "" {
		_ = os.RemoveAll(c.admin)
	}
	_ = os.RemoveAll(c.tmp)
}

// Close removes the checkout and git's record of it. It takes no context:
// it runs when the command ends, cancelled or not.
func (c *Checkout) Close() error {
	_, err := git(context.Background(), c.repo, "worktree", "remove", "--force", c.Dir)
	if rerr := os.RemoveAll(c.tmp); err == nil && rerr != nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("remove the checkout of base %s: %w", c.Ref, err)
	}
	return nil
}
