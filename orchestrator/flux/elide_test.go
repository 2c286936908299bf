package flux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// wideConfigMap writes a ConfigMap of n keys as a cluster's generated
// key lists hold them: about 55 bytes a key, so that 190,000 keys make
// 10 MB.
func wideConfigMap(name string, n int) string {
	var b strings.Builder
	b.Grow(n * 56)
	fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: flux-system\ndata:\n", name)
	for i := range n {
		fmt.Fprintf(&b, "  key-%07d: value-%07d-abcdefghijklmnopqrstuvwxyz-0123\n", i, i)
	}
	return b.String()
}

// writeFile writes a file under root.
func writeFile(t testing.TB, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wideRepo writes an environment of one stack, with files laid over it
// (an empty one removed).
func wideRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := benchRepo(t, 1)
	root := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
	for rel, body := range files {
		if body == "" {
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeFile(t, root, rel, body)
	}
	return dir
}

// appKustomization lists the stack's own files and more.
func appKustomization(more ...string) string {
	s := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - terraform.yaml\n"
	for _, m := range more {
		s += m + "\n"
	}
	return s
}

// renderedData returns the data of a rendered ConfigMap.
func renderedData(l *loader, scope, name string) map[string]any {
	for _, o := range l.rendered[scope] {
		if md, _ := o.Object["metadata"].(map[string]any); md["name"] == name && o.Object["kind"] == "ConfigMap" {
			data, _ := o.Object["data"].(map[string]any)
			return data
		}
	}
	return nil
}

// cpuTime is the CPU time the test process used so far.
func cpuTime(t testing.TB) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestWideConfigMap loads an environment holding one unused ConfigMap of
// 10 MB and 190,000 keys, in the entry directory or in a Kustomization's
// path, within 10 s of CPU, with every key rendered.
func TestWideConfigMap(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10 MB of YAML")
	}
	keys := 190_000
	if raceEnabled {
		// The race detector slows kyaml about tenfold, and the bound is
		// not checked under it: 20,000 keys, twice the width kustomize's
		// reader is spared, prove the rendering. make test runs this test
		// again without -race, for the bound on 10 MB.
		keys = 20_000
	}
	body := wideConfigMap("big", keys)
	if len(body) < keys*55 {
		t.Fatalf("fixture holds %d bytes, want %d", len(body), keys*55)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		scope string
	}{
		{"entry directory", map[string]string{"environments/bench/dev/big.yaml": body}, ""},
		{"Kustomization path", map[string]string{
			"flux-apps/bench/services-0000/big.yaml":           body,
			"flux-apps/bench/services-0000/kustomization.yaml": appKustomization("  - big.yaml"),
		}, "services-0000"},
		{"Kustomization path with postBuild", map[string]string{
			"flux-apps/bench/services-0000/big.yaml":             body,
			"flux-apps/bench/services-0000/kustomization.yaml":   appKustomization("  - big.yaml"),
			"environments/bench/dev/services/services-0000.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: services-0000\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./flux-apps/bench/services-0000\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  postBuild:\n    substitute:\n      region: eu-central-1\n",
		}, "services-0000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := wideRepo(t, tc.files)
			start, cpu := time.Now(), cpuTime(t)
			l, err := read(keepRendered(context.Background()), dir)
			took, used := time.Since(start), cpuTime(t)-cpu
			if err != nil {
				t.Fatalf("read(%q) = %v, want no error", dir, err)
			}
			if ps := l.sortedProblems(); len(ps) > 0 {
				t.Fatalf("read(%q) problems = %v, want none", dir, ps)
			}
			t.Logf("loaded a ConfigMap of %d keys (%d bytes) in %v, %v of CPU", keys, len(body), took, used)
			// The machine is shared: the bound is on the CPU time the load
			// takes, which a busy machine does not stretch as it does the
			// wall clock.
			if used > 10*time.Second && !raceEnabled {
				t.Errorf("read(%q) took %v of CPU, want at most 10s", dir, used)
			}
			data := renderedData(l, tc.scope, "big")
			if len(data) != keys {
				t.Fatalf("ConfigMap big rendered with %d keys, want %d", len(data), keys)
			}
			last := fmt.Sprintf("key-%07d", keys-1)
			if got, want := data[last], fmt.Sprintf("value-%07d-abcdefghijklmnopqrstuvwxyz-0123", keys-1); got != want {
				t.Errorf("ConfigMap big %s = %v, want %v", last, got, want)
			}
		})
	}
}

// TestElisionKeepsRendering renders wide mappings with and without reading
// them past kustomize, and wants the very same objects: with every kind of
// scalar, nesting, several documents, and the transformers that leave the
// mapping alone or change it.
func TestElisionKeepsRendering(t *testing.T) {
	var wideBody strings.Builder
	wideBody.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wide\n  namespace: flux-system\n  labels:\n    app: wide\ndata:\n")
	for i := range 1500 {
		switch i % 6 {
		case 0:
			fmt.Fprintf(&wideBody, "  k%d: plain value %d\n", i, i)
		case 1:
			fmt.Fprintf(&wideBody, "  k%d: \"%d\"\n", i, i)
		case 2:
			fmt.Fprintf(&wideBody, "  k%d: |\n    line one %d\n    line two\n", i, i)
		case 3:
			fmt.Fprintf(&wideBody, "  k%d: 'single ''quoted'' # not a comment'\n", i)
		case 4:
			fmt.Fprintf(&wideBody, "  k%d: \"\" # a comment\n", i)
		case 5:
			fmt.Fprintf(&wideBody, "  \"k%d.json\": '{\"a\": [1, 2]}'\n", i)
		}
	}
	wide := wideBody.String()
	// nested is a CRD-like object whose wide mapping is deep, of every
	// type, with a second document after it.
	var nestedBody strings.Builder
	nestedBody.WriteString("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: nested\n  namespace: flux-system\nspec:\n  tables:\n    - name: first\n      rows:\n")
	for i := range 1200 {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&nestedBody, "        r%d: %d\n", i, i)
		case 1:
			fmt.Fprintf(&nestedBody, "        r%d: true\n", i)
		case 2:
			fmt.Fprintf(&nestedBody, "        r%d: ~\n", i)
		case 3:
			fmt.Fprintf(&nestedBody, "        r%d: [a, {b: %d.5}]\n", i, i)
		case 4:
			fmt.Fprintf(&nestedBody, "        r%d:\n          deep: {x: 2006-01-02}\n", i)
		}
	}
	nestedBody.WriteString("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after\n  namespace: flux-system\ndata:\n  a: b\n")
	nested := nestedBody.String()
	patch := func(p string) string {
		return appKustomization("  - wide.yaml", "  - nested.yaml", p)
	}
	postBuild := "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: services-0000\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./flux-apps/bench/services-0000\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  postBuild:\n    substitute:\n      region: eu-central-1\n"
	for _, tc := range []struct {
		name  string
		kust  string
		flux  string
		extra string
	}{
		{"plain", appKustomization("  - wide.yaml", "  - nested.yaml"), "", ""},
		{"postBuild, no variable in the mapping", appKustomization("  - wide.yaml", "  - nested.yaml", "  - vars.yaml"), postBuild, ""},
		{"postBuild, a variable in the mapping", appKustomization("  - wide.yaml", "  - nested.yaml", "  - vars.yaml"), postBuild, "  k1: in ${region}\n"},
		{"postBuild, a timestamp in the mapping", appKustomization("  - wide.yaml", "  - nested.yaml", "  - vars.yaml"), postBuild, "  k1: 2006-01-02\n"},
		{"postBuild, a non-ASCII escape in the mapping", appKustomization("  - wide.yaml", "  - nested.yaml", "  - vars.yaml"), postBuild, "  k1: \"bad \\xff byte\"\n"},
		{"transformers that leave it alone", patch("namePrefix: p-\nlabels:\n  - pairs:\n      team: a\ncommonAnnotations:\n  note: b\nnamespace: other"), "", ""},
		{"strategic merge patch into the mapping", patch("patches:\n  - patch: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: wide\n        namespace: flux-system\n      data:\n        added: by a patch\n        k0: replaced"), "", ""},
		{"json6902 patch of a key", patch("patches:\n  - target:\n      kind: ConfigMap\n      name: wide\n    patch: |\n      - op: replace\n        path: /data/k1\n        value: patched"), "", ""},
		{"patch of another field", patch("patches:\n  - target:\n      kind: ConfigMap\n      name: wide\n    patch: |\n      - op: add\n        path: /metadata/labels/x\n        value: y"), "", ""},
		{"merging generator", patch("configMapGenerator:\n  - name: wide\n    namespace: flux-system\n    behavior: merge\n    literals:\n      - merged=yes"), "", ""},
		{"replacement from the mapping", patch("replacements:\n  - source:\n      kind: ConfigMap\n      name: wide\n      fieldPath: data.k6\n    targets:\n      - select:\n          kind: ConfigMap\n          name: after\n        fieldPaths:\n          - data.a"), "", ""},
		{"replacement of the whole mapping", patch("replacements:\n  - source:\n      kind: ConfigMap\n      name: wide\n      fieldPath: data\n    targets:\n      - select:\n          kind: ConfigMap\n          name: after\n        fieldPaths:\n          - data"), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := wide
			if tc.extra != "" {
				body = strings.Replace(wide, "\n  k1: \"1\"\n", "\n"+tc.extra, 1)
			}
			files := map[string]string{
				"flux-apps/bench/services-0000/wide.yaml":          body,
				"flux-apps/bench/services-0000/nested.yaml":        nested,
				"flux-apps/bench/services-0000/kustomization.yaml": tc.kust,
				"flux-apps/bench/services-0000/vars.yaml":          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: vars\n  namespace: flux-system\ndata:\n  where: ${region}\n  plain: \"1\"\n",
			}
			if tc.flux != "" {
				files["environments/bench/dev/services/services-0000.yaml"] = tc.flux
			}
			dir := wideRepo(t, files)
			render := func(elide bool) ([]map[string]any, diag.Problems) {
				t.Helper()
				elideWide = elide
				defer func() { elideWide = true }()
				l, err := read(keepRendered(context.Background()), dir)
				if err != nil {
					t.Fatalf("read(%q) = %v, want no error", dir, err)
				}
				var objs []map[string]any
				for _, o := range l.rendered["services-0000"] {
					objs = append(objs, o.Object)
				}
				return objs, l.sortedProblems()
			}
			want, wantProblems := render(false)
			got, gotProblems := render(true)
			if len(want) < 3 {
				t.Fatalf("kustomize rendered %d objects, want at least 3", len(want))
			}
			if tc.flux != "" {
				for _, o := range got {
					md, _ := o["metadata"].(map[string]any)
					data, _ := o["data"].(map[string]any)
					if md["name"] == "vars" && data["where"] != "eu-central-1" {
						t.Errorf("ConfigMap vars where = %v, want eu-central-1: substituted", data["where"])
					}
					if md["name"] == "wide" && strings.Contains(tc.extra, "${region}") && data["k1"] != "in eu-central-1" {
						t.Errorf("ConfigMap wide k1 = %v, want in eu-central-1: substituted", data["k1"])
					}
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("objects read past kustomize differ from kustomize's (-kustomize +strata):\n%s", d)
			}
			if d := cmp.Diff(wantProblems, gotProblems); d != "" {
				t.Errorf("problems differ (-kustomize +strata):\n%s", d)
			}
		})
	}
}

// TestLimits refuses, within 2 s, input past each limit with a problem
// naming the file and the limit.
func TestLimits(t *testing.T) {
	annotations := strings.Replace(wideConfigMap("w", MaxMappingKeys+1), "metadata:\n  name: w\n  namespace: flux-system\ndata:\n", "metadata:\n  name: w\n  namespace: flux-system\n  annotations:\n", 1)
	annotations = strings.ReplaceAll(annotations, "\n  key-", "\n    key-")
	var deep strings.Builder
	deep.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  x: y\nextra: ")
	for range MaxNesting + 5 {
		deep.WriteString("[")
	}
	for range MaxNesting + 5 {
		deep.WriteString("]")
	}
	deep.WriteString("\n")
	var laughs strings.Builder
	laughs.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: laughs\ndata:\n  x: y\nl0: &l0 [a, a, a, a, a, a, a, a, a, a]\n")
	for i := 1; i < 8; i++ {
		fmt.Fprintf(&laughs, "l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	patched := wideConfigMap("patched", MaxMappingKeys+1)
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"wide mapping kustomize must read", map[string]string{"environments/bench/dev/w.yaml": annotations},
			[]string{"environments/bench/dev/w.yaml", "metadata.annotations", "10001 keys", "10000"}},
		{"wide mapping a patch changes", map[string]string{
			"flux-apps/bench/services-0000/p.yaml":             patched,
			"flux-apps/bench/services-0000/kustomization.yaml": appKustomization("  - p.yaml", "patches:\n  - patch: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: patched\n        namespace: flux-system\n      data:\n        added: x"),
		}, []string{"flux-apps/bench/services-0000/p.yaml", "data", "10001 keys", "this build changes it"}},
		{"wide mapping Flux's generator reads", map[string]string{
			"flux-apps/bench/services-0000/p.yaml":             patched,
			"flux-apps/bench/services-0000/kustomization.yaml": "",
		}, []string{"flux-apps/bench/services-0000/p.yaml", "data", "10001 keys", "has no kustomization file", "add a kustomization.yaml to flux-apps/bench/services-0000/"}},
		{"nesting", map[string]string{"environments/bench/dev/deep.yaml": deep.String()},
			[]string{"environments/bench/dev/deep.yaml", "105 levels", "100"}},
		{"objects of one build", map[string]string{"environments/bench/dev/many.yaml": strings.Repeat("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\n", MaxBuildObjects+1)},
			[]string{"environments/bench/dev/many.yaml", "objects by its end", "5000"}},
		{"alias expansion", map[string]string{"environments/bench/dev/laughs.yaml": laughs.String()},
			[]string{"environments/bench/dev/laughs.yaml", "aliases", "100000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := wideRepo(t, tc.files)
			cpu := cpuTime(t)
			env, err := Load(context.Background(), dir)
			took := cpuTime(t) - cpu
			var ps diag.Problems
			if err != nil && !errors.As(err, &ps) {
				t.Fatalf("Load(%q) = %v, want problems", dir, err)
			}
			// A file of a Kustomization's own holds back its chain; one of
			// the entry directory, everything.
			if ps = environment.AllProblems(env, err); len(ps) == 0 {
				t.Fatalf("Load(%q) = %v, want problems", dir, err)
			}
			if took > 2*time.Second && !raceEnabled {
				t.Errorf("Load(%q) took %v of CPU, want at most 2s", dir, took)
			}
			text := ps.Error()
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("Load(%q) = %v, want it to say %q", dir, text, w)
				}
			}
		})
	}
}

// TestManifestSize refuses a manifest file past MaxManifestBytes without
// reading it.
func TestManifestSize(t *testing.T) {
	dir := wideRepo(t, nil)
	p := filepath.Join(dir, "huge.yaml")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxManifestBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = Load(context.Background(), dir)
	var ps diag.Problems
	if !errors.As(err, &ps) || !strings.Contains(ps.Error(), "environments/bench/dev/huge.yaml") || !strings.Contains(ps.Error(), "32 MiB") {
		t.Errorf("Load(%q) = %v, want a problem of huge.yaml naming 32 MiB", dir, err)
	}
}
