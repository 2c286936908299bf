package leader_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/leader"
)

func TestIdentity(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	got := leader.Identity()
	want := regexp.MustCompile("^" + regexp.QuoteMeta(host) + "_[0-9]+$")
	if !want.MatchString(got) {
		t.Errorf("Identity() = %q, want %s", got, want)
	}
}

// TestNewErrors: without a cluster to talk to, New says which
// configuration it could not read.
func TestNewErrors(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(garbage, []byte("clusters: [unclosed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// No in-cluster configuration in a test.
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	tests := []struct {
		name string
		cfg  leader.Config
		want string
	}{
		{"missing kubeconfig", leader.Config{Kubeconfig: filepath.Join(t.TempDir(), "nope")}, "leader election: read kubeconfig "},
		{"garbled kubeconfig", leader.Config{Kubeconfig: garbage}, "leader election: read kubeconfig " + garbage},
		{"not in a cluster", leader.Config{}, "leader election: no kubeconfig given and not running in a cluster"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := leader.New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New(%+v) = %v, want an error with %q", tt.cfg, err, tt.want)
			}
		})
	}
}
