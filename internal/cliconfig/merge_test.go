package cliconfig

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const own = `plugin_cache_dir = "/state/plugins"

provider_installation {
  network_mirror {
    url = "https://127.0.0.1:5000/"
  }
}
`

func TestMerge(t *testing.T) {
	tests := []struct {
		name, user  string
		want        []string // each in the merged text
		wantNot     []string // none in it
		wantDropped []string
	}{
		{
			name: "credentials are added to strata's settings",
			user: "credentials \"app.terraform.io\" {\n  token = \"s3cr3t.atlasv1.x\"\n}\n",
			want: []string{`credentials "app.terraform.io"`, `token = "s3cr3t.atlasv1.x"`, `plugin_cache_dir = "/state/plugins"`, `url = "https://127.0.0.1:5000/"`},
		},
		{
			name:        "the user's provider_installation replaces the mirror",
			user:        "provider_installation {\n  direct {}\n}\n",
			want:        []string{"direct", `plugin_cache_dir = "/state/plugins"`},
			wantNot:     []string{"network_mirror"},
			wantDropped: []string{"provider_installation"},
		},
		{
			name:        "the user's plugin_cache_dir is kept (TF_PLUGIN_CACHE_DIR still wins)",
			user:        "plugin_cache_dir = \"/mine\"\n",
			want:        []string{`plugin_cache_dir = "/mine"`, "network_mirror"},
			wantNot:     []string{"/state/plugins"},
			wantDropped: []string{"plugin_cache_dir"},
		},
		{
			name: "the JSON form",
			user: `{"credentials": {"tfe.example.com": {"token": "abc"}}}`,
			want: []string{"tfe.example.com", `"abc"`, "network_mirror"},
		},
		{
			name: "an empty configuration is strata's",
			user: "",
			want: []string{`plugin_cache_dir = "/state/plugins"`, "network_mirror"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, dropped, err := Merge(tt.user, own)
			if err != nil {
				t.Fatalf("Merge(%q) error: %v", tt.user, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Merge(%q) = %q, want it to contain %q", tt.user, got, w)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Merge(%q) = %q, want no %q", tt.user, got, w)
				}
			}
			if diff := cmp.Diff(tt.wantDropped, dropped); diff != "" {
				t.Errorf("Merge(%q) dropped (-want +got):\n%s", tt.user, diff)
			}
			if err := Check(got); err != nil {
				t.Errorf("Check(Merge(%q)) = %v, want nil", tt.user, err)
			}
			tofuReads(t, got)
		})
	}
}

func TestCheck(t *testing.T) {
	for _, text := range []string{`credentials "x" {`, `provider_installation { direct {`, `"a" = = 1`} {
		if err := Check(text); err == nil {
			t.Errorf("Check(%q) = nil, want an error", text)
		}
	}
}

// tofuReads has the real tofu read a merged configuration, when
// STRATA_TOFU names it: every tofu command loads the CLI configuration,
// and says on stderr what it cannot read.
func tofuReads(t *testing.T, text string) {
	t.Helper()
	bin := os.Getenv("STRATA_TOFU")
	if bin == "" {
		return
	}
	path := filepath.Join(t.TempDir(), "cli.tfrc")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "version")
	// As the runner runs it: the plugin cache is strata's (the
	// environment wins over the file).
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+path, "TF_PLUGIN_CACHE_DIR="+t.TempDir())
	cmd.Dir = t.TempDir()
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "problems with the CLI configuration") {
		t.Errorf("tofu reads the merged configuration %q: %s", text, out)
	}
}
