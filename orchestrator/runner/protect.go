package runner

import (
	"fmt"
	"os"
)

// protectState makes the stack's local state file, and the backup tofu
// writes beside it, readable by their owner only: a state holds every
// resource's attributes, sensitive ones included. tofu creates them
// 0644 (inside strata's 0700 directories); a run leaves them 0600, and
// so tightens the files an older strata left behind. It runs when a run
// ends, whatever its result, since a failed apply writes state too.
func (r *Runner) protectState(st *runState) {
	if !r.localState(st.req) {
		return
	}
	path, err := r.localStatePath(st.req)
	if err != nil {
		return
	}
	for _, p := range []string{path, path + ".backup"} {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 == 0 {
			continue
		}
		if err := os.Chmod(p, 0o600); err != nil {
			st.log.Warn(fmt.Sprintf("protect state file %s: %v", p, err))
		}
	}
}
