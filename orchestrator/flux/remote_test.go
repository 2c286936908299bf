package flux

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// remoteSettings is a manifest served as a remote resource: a ConfigMap
// the stack reads its variables from.
const remoteSettings = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: remote-settings}\ndata: {region: eu-north-9}\n"

// TestRemoteResources: a kustomization file's remote manifest is fetched,
// checked and read as kustomize-controller reads it; one that cannot be
// fetched (gone, a listener that never answers, past the size) holds
// back its Kustomization, naming the URL and why; a copy fetched before
// stands in when the server is down.
func TestRemoteResources(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	serve := map[string]string{
		"/settings.yaml": remoteSettings,
		"/bomb.yaml":     "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := serve[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	// A listener that accepts and never answers.
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	go func() {
		for {
			c, err := dead.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	const kzFile = "flux-apps/app/kustomization.yaml"
	tf := strings.Replace(baseRepo[appTF], `vars: [{name: region, value: "${region}"}]`, `varsFrom: [{kind: ConfigMap, name: remote-settings}]`, 1)
	load := func(t *testing.T, url string) (*environment.Environment, diag.Problems) {
		t.Helper()
		root := writeRepo(t, map[string]string{kzFile: "resources: [terraform.yaml, '" + url + "']\n", appTF: tf})
		dir := filepath.Join(root, envDir)
		// --remote-timeout 500ms
		env, err := Load(WithOptions(context.Background(), Options{RemoteTimeout: 500 * time.Millisecond}), dir)
		var ps diag.Problems
		if err != nil && !errors.As(err, &ps) {
			t.Fatalf("Load(%q) = %v, want problems", dir, err)
		}
		return env, environment.AllProblems(env, err)
	}
	t.Run("fetched and read", func(t *testing.T) {
		env, ps := load(t, srv.URL+"/settings.yaml")
		if len(ps) != 0 {
			t.Fatalf("Load with %s/settings.yaml = %v, want no problem", srv.URL, ps)
		}
		if s := env.Stack("app"); s == nil || s.Vars["region"] != "eu-north-9" {
			t.Errorf("Load with %s/settings.yaml: stack app = %+v, want region from the remote ConfigMap", srv.URL, s)
		}
	})
	t.Run("the copy fetched before, when the server is down", func(t *testing.T) {
		srv.Config.SetKeepAlivesEnabled(false)
		delete(serve, "/settings.yaml")
		env, ps := load(t, srv.URL+"/settings.yaml")
		serve["/settings.yaml"] = remoteSettings
		if s := env.Stack("app"); s == nil || s.Vars["region"] != "eu-north-9" {
			t.Errorf("Load with the server down: stack app = %+v, want the copy's region", s)
		}
		if len(ps) != 1 || !strings.Contains(ps[0].Message, "could not be fetched now; strata reads the copy it fetched before") {
			t.Errorf("Load with the server down = %v, want one warning of the copy", ps)
		}
	})
	for _, tt := range []struct {
		name, url, want string
	}{
		{"gone", srv.URL + "/gone.yaml", `cannot fetch the remote resource "` + srv.URL + `/gone.yaml": get ` + srv.URL + `/gone.yaml: 404 Not Found`},
		{"a listener that never answers", "http://" + dead.Addr().String() + "/x.yaml", `cannot fetch the remote resource "http://` + dead.Addr().String() + `/x.yaml": get http://` + dead.Addr().String() + `/x.yaml: no answer within 500ms`},
		{"an alias bomb", srv.URL + "/bomb.yaml", `the remote resource "` + srv.URL + `/bomb.yaml": `},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			env, ps := load(t, tt.url)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Load with %s took %s, want it bounded", tt.url, d)
			}
			if len(ps) == 0 || !strings.Contains(ps[0].String(), tt.want) || ps[0].File != kzFile {
				t.Fatalf("Load with %s = %v, want a problem of %s holding %q", tt.url, ps, kzFile, tt.want)
			}
			if env.Stack("app") != nil || len(env.Blocked) != 1 {
				t.Errorf("Load with %s: stacks %v, blocked %v; want app held back", tt.url, env.Stacks, env.Blocked)
			}
		})
	}
}
