package flux

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
)

// recordingHelper puts in $STRATA_SOPS a strata-sops that appends its
// process id to the returned log each time it starts, then runs the real
// one in that process.
func recordingHelper(t *testing.T) string {
	t.Helper()
	real := sopstest.Helper(t)
	dir := t.TempDir()
	log, bin := filepath.Join(dir, "starts.log"), filepath.Join(dir, "strata-sops")
	testkit.WriteFile(t, bin, "#!/bin/sh\necho $$ >> '"+log+"'\nexec '"+real+"' \"$@\"\n")
	if err := os.Chmod(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(decryption.EnvHelper, bin)
	return log
}

// TestDecryptOneHelper: a render that decrypts several values (an object,
// a file, an env file) starts one strata-sops, which has exited when the
// load returns; a render with nothing encrypted starts none.
func TestDecryptOneHelper(t *testing.T) {
	noAgeKeys(t)
	key := sopstest.NewAgeKey(t)
	keyFile := key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))
	tests := []struct {
		name string
		root func(t *testing.T) string
		want int
	}{
		{name: "encrypted", root: func(t *testing.T) string { return sopsRepo(t, sopstest.Recipients{Age: []string{key.Recipient}}) }, want: 1},
		{name: "nothing encrypted", root: func(t *testing.T) string { return testkit.Copy(t, filepath.Join("testdata", "sops")) }, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := recordingHelper(t)
			l, ps := loadKeys(t, tt.root(t), keyFile)
			if len(ps) > 0 {
				t.Fatalf("Load(clusters/dev) problems:\n%v", ps)
			}
			if tt.want > 0 && l.env.Stack("app").Vars["db_password"] != "password-from-env" {
				t.Errorf("Load(clusters/dev) app vars = %v, want them decrypted", l.env.Stack("app").Vars)
			}
			b, err := os.ReadFile(log)
			if err != nil && tt.want > 0 {
				t.Fatal(err)
			}
			pids := strings.Fields(string(b))
			if len(pids) != tt.want {
				t.Fatalf("strata-sops started %d times, want %d", len(pids), tt.want)
			}
			for _, p := range pids {
				pid, _ := strconv.Atoi(p)
				if err := syscall.Kill(pid, 0); err == nil {
					t.Errorf("strata-sops (pid %d) still runs after the load", pid)
				}
			}
		})
	}
}

// TestDecryptHelperMissing: without strata-sops, each encrypted value is
// a problem that names the file, says where strata looked and how to
// install it; the rest of the environment loads.
func TestDecryptHelperMissing(t *testing.T) {
	noAgeKeys(t)
	key := sopstest.NewAgeKey(t)
	root := sopsRepo(t, sopstest.Recipients{Age: []string{key.Recipient}})
	missing := filepath.Join(t.TempDir(), "strata-sops")
	t.Setenv(decryption.EnvHelper, missing)
	_, ps := loadKeys(t, root, key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
	var found []string
	for _, p := range ps {
		if !strings.Contains(p.Message, "cannot decrypt") {
			continue
		}
		found = append(found, p.File)
		if !strings.Contains(p.Message, missing) || !strings.Contains(p.Fix, "install strata-sops beside strata") {
			t.Errorf("problem %s: %q, fix %q; want it to name %s and say to install strata-sops", p.File, p.Message, p.Fix, missing)
		}
	}
	if !slices.Contains(found, "secrets/credentials.yaml") {
		t.Errorf("Load(clusters/dev) with no strata-sops: problems of %q, want one of secrets/credentials.yaml:\n%v", found, ps)
	}
}
