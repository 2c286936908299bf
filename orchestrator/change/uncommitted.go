package change

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// Uncommitted are the files of a work tree that differ from its HEAD
// commit: what Flux, which reads the commit, does not see.
type Uncommitted struct {
	// Commit is HEAD's commit, "" before the first commit.
	Commit string `json:"commit,omitempty"`
	// Files are the paths that differ, relative to the work tree's root,
	// each after git's two-letter status ("M ", "??", "D ", …).
	Files []string `json:"files"`
}

// UncommittedIn returns what of the git work tree holding dir differs from
// its HEAD commit (files git ignores are left out, as a clone does not
// have them); nil when nothing does, or when dir is in no git work tree.
func UncommittedIn(ctx context.Context, dir string) (*Uncommitted, error) {
	if _, err := git(ctx, dir, "rev-parse", "--is-inside-work-tree"); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, nil
	}
	out, err := gitRaw(ctx, dir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
	if err != nil {
		return nil, fmt.Errorf("list the changes not committed in %s: %w", dir, err)
	}
	var files []string
	for _, e := range strings.Split(out, "\x00") {
		if len(e) > 3 {
			files = append(files, e[:2]+" "+filepath.ToSlash(e[3:]))
		}
	}
	if len(files) == 0 {
		return nil, nil
	}
	u := &Uncommitted{Files: files}
	if c, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD"); err == nil {
		u.Commit = c
	} else if ctx.Err() != nil {
		return nil, err
	}
	return u, nil
}
