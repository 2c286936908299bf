package mirror

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
)

// TestTofuInstallsModulesFromRegistry is the module registry's end-to-end
// test: three versions of a tiny module, uploaded with PUT and served over
// https, are installed by a real tofu init from a registry source with a
// host and port, and run by tofu apply; the version constraint picks
// which. It runs on a directory store and on an S3 store.
func TestTofuInstallsModulesFromRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tofu; skipped with -short")
	}
	tofu := tofutest.Binary(t)
	const token = "s3cret"
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			srv := mirrortest.Serve(t, NewServer(b.new(t), Options{UploadToken: token}))
			for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
				req, err := http.NewRequest(http.MethodPut, srv.URL+"v1/modules/strata/echo/null/"+v+".tar.gz", bytes.NewReader(mirrortest.Module(t, v)))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Fatalf("PUT module %s = %v", v, err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusCreated {
					t.Fatalf("PUT module %s = %d, want 201", v, resp.StatusCode)
				}
			}
			// tofu takes a registry host with a port: 127.0.0.1:PORT.
			host := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "https://"), "/")
			cliConfig := filepath.Join(t.TempDir(), "tofu.rc")
			if err := os.WriteFile(cliConfig, []byte("# no settings: modules come from the registry in their source\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "SSL_CERT_FILE=" + srv.Certs.CAFile, "TF_IN_AUTOMATION=1"}

			tests := []struct {
				constraint string
				want       string
			}{
				{"~> 1.0", "1.1.0"},
				{"~> 1.0.0", "1.0.0"},
				{">= 1.0.0", "2.0.0"},
			}
			for _, tt := range tests {
				t.Run(tt.constraint, func(t *testing.T) {
					dir := t.TempDir()
					root := `module "m" {
  source  = "` + host + `/strata/echo/null"
  version = "` + tt.constraint + `"
}

output "version" {
  value = module.m.version
}
`
					if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(root), 0o644); err != nil {
						t.Fatal(err)
					}
					srv.Reset()
					runTofu(t, tofu, dir, env, "init", "-input=false", "-no-color")
					var archives []string
					for _, r := range srv.Requests() {
						if strings.HasSuffix(r.Path, ".tar.gz") && r.Method == http.MethodGet && r.Status == http.StatusOK {
							archives = append(archives, r.Path)
						}
					}
					want := "/v1/modules/strata/echo/null/" + tt.want + ".tar.gz"
					if !slices.Equal(archives, []string{want}) {
						t.Errorf("tofu init with version %q downloaded %q, want %s; requests:\n%v", tt.constraint, archives, want, srv.Requests())
					}
					runTofu(t, tofu, dir, env, "apply", "-auto-approve", "-input=false", "-no-color")
					got := strings.TrimSpace(runTofu(t, tofu, dir, env, "output", "-raw", "version"))
					if want := "echo " + tt.want; got != want {
						t.Errorf("tofu output -raw version with version %q = %q, want %q", tt.constraint, got, want)
					}
				})
			}
		})
	}
}
