package inputs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"creds.yaml":    "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: infra}\nstringData: {token: t}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {zone: z1}\n",
		"sub/other.yml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ignored}\n",
		".git/x.yaml":   "not: [yaml",
		"notes.txt":     "not: [yaml",
	})
	f, err := ReadFiles(context.Background(), []string{dir})
	if err != nil {
		t.Fatalf("ReadFiles(%q) = %v", dir, err)
	}
	tests := []struct {
		kind, ns, name string
		want           string // the file, "" for none
	}{
		{"Secret", "infra", "creds", "creds.yaml"},
		{"Secret", "flux-system", "creds", ""},
		{"ConfigMap", "flux-system", "settings", "creds.yaml"},
		{"ConfigMap", "infra", "settings", "creds.yaml"},
		{"Secret", "infra", "settings", ""},
		{"Deployment", "", "ignored", ""},
	}
	for _, tt := range tests {
		obj, origin, err := f.Get(context.Background(), tt.kind, tt.ns, tt.name)
		got := ""
		if obj != nil {
			got = filepath.Base(origin)
		}
		if err != nil || got != tt.want {
			t.Errorf("Get(%q, %q, %q) = %q, %v, want %q", tt.kind, tt.ns, tt.name, got, err, tt.want)
		}
	}
	obj, _, _ := f.Get(context.Background(), "Secret", "infra", "creds")
	obj["stringData"].(map[string]any)["token"] = "changed"
	again, _, _ := f.Get(context.Background(), "Secret", "infra", "creds")
	if diff := cmp.Diff(map[string]any{"token": "t"}, again["stringData"]); diff != "" {
		t.Errorf("Get after changing what it returned: diff (-want +got):\n%s", diff)
	}
	if f.Len() != 2 || !strings.HasPrefix(f.Identity(), "files:") {
		t.Errorf("Len, Identity = %d, %q, want 2 and a files: identity", f.Len(), f.Identity())
	}
}

func TestReadFilesErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"malformed", map[string]string{"a.yaml": "apiVersion: v1\nkind: [Secret\n"}, "a.yaml: document 1"},
		{"twice", map[string]string{"a.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n", "b.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n"}, "Secret x is also in"},
		{"no name", map[string]string{"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n"}, "ConfigMap has no metadata.name"},
		{"too large", map[string]string{"a.yaml": "# " + strings.Repeat("x", MaxFileSize)}, "larger than the 4 MiB strata reads of one inputs file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tt.files)
			_, err := ReadFiles(context.Background(), []string{dir})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadFiles(%v) = %v, want an error holding %q", tt.files, err, tt.want)
			}
		})
	}
	if _, err := ReadFiles(context.Background(), []string{filepath.Join(t.TempDir(), "gone")}); err == nil || !strings.Contains(err.Error(), "read inputs") {
		t.Errorf("ReadFiles(gone) = %v, want an error naming it", err)
	}
}

// FuzzAdd feeds arbitrary manifests to the reader: it never panics, and
// what it keeps is a ConfigMap or Secret with a name.
func FuzzAdd(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {token: t}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: s, namespace: n}\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Add([]byte("apiVersion: v1\nkind: Secret\nmetadata: [x]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		fs := &Files{objects: map[string]object{}}
		if err := fs.add("f.yaml", b); err != nil {
			return
		}
		for key, o := range fs.objects {
			parts := strings.SplitN(key, "/", 3)
			if len(parts) != 3 || parts[2] == "" || (parts[0] != "ConfigMap" && parts[0] != "Secret") || o.file != "f.yaml" {
				t.Errorf("add kept %q from %q", key, b)
			}
		}
	})
}
