package statefile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/filestat"
)

// stateText is a state file of serial and lineage.
func stateText(serial, lineage string) string {
	return `{"version":4,"serial":` + serial + `,"lineage":"` + lineage + `","resources":[]}`
}

// keepAsOld records path in v as read with its current stat, as a
// Versions keeps a file that changed well before it was read (a test's
// file was written just now: filestat.Racy).
func keepAsOld(t *testing.T, v *Versions, path string, ver Version) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	sig, _, ok := filestat.Signature(fi)
	if !ok {
		t.Skip("no stat signature on this system")
	}
	v.kept[path] = keptVersion{Stat: sig, Serial: ver.Serial, Lineage: ver.Lineage}
	v.dirty = true
}

func TestVersions(t *testing.T) {
	tests := []struct {
		name string
		// kept is the version kept for the file with its stat, nil for
		// none.
		kept *Version
		// change rewrites the file after it was kept.
		change string
		remove bool
		want   Version
		exists bool
	}{
		{name: "the stat unchanged: the kept version, unread", kept: &Version{Serial: 7, Lineage: "kept"}, want: Version{Serial: 7, Lineage: "kept"}, exists: true},
		{name: "the file changed: read again", kept: &Version{Serial: 7, Lineage: "kept"}, change: stateText("8", "aaaa"), want: Version{Serial: 8, Lineage: "aaaa"}, exists: true},
		{name: "nothing kept: read", want: Version{Serial: 3, Lineage: "aaaa"}, exists: true},
		{name: "the file removed", kept: &Version{Serial: 7, Lineage: "kept"}, remove: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "app.tfstate")
			if err := os.WriteFile(path, []byte(stateText("3", "aaaa")), 0o600); err != nil {
				t.Fatal(err)
			}
			v := LoadVersions(filepath.Join(dir, "versions.json"))
			if tt.kept != nil {
				keepAsOld(t, v, path, *tt.kept)
			}
			if tt.change != "" {
				if err := os.WriteFile(path, []byte(tt.change), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tt.remove {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
			}
			got, exists, err := v.ReadLocal(path)
			if err != nil || exists != tt.exists || got != tt.want {
				t.Errorf("ReadLocal(%q) = %+v, %v, %v; want %+v, %v, nil", path, got, exists, err, tt.want, tt.exists)
			}
			if _, kept := v.kept[path]; tt.remove && kept {
				t.Errorf("ReadLocal(%q) of a removed file kept its version", path)
			}
		})
	}
}

// TestVersionsRacy: a file read within filestat.Window of its last change
// is not kept, since it may change again unseen by its stat.
func TestVersionsRacy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.tfstate")
	if err := os.WriteFile(path, []byte(stateText("1", "aaaa")), 0o600); err != nil {
		t.Fatal(err)
	}
	v := LoadVersions(filepath.Join(dir, "versions.json"))
	if _, _, err := v.ReadLocal(path); err != nil {
		t.Fatal(err)
	}
	if k, ok := v.kept[path]; ok {
		t.Errorf("ReadLocal(%q) of a file written just now kept %+v", path, k)
	}
}

// TestVersionsSave: what is kept is written back and read again; a
// corrupt or missing file keeps nothing.
func TestVersionsSave(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cache", "acme", "dev.json")
	path := filepath.Join(dir, "app.tfstate")
	if err := os.WriteFile(path, []byte(stateText("1", "aaaa")), 0o600); err != nil {
		t.Fatal(err)
	}
	v := LoadVersions(file)
	keepAsOld(t, v, path, Version{Serial: 1, Lineage: "aaaa"})
	if err := v.Save(); err != nil {
		t.Fatalf("Save() = %v", err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("Save() wrote %s with %v, %v; want mode 0600", file, fi.Mode(), err)
	}
	if diff := cmp.Diff(v.kept, LoadVersions(file).kept); diff != "" {
		t.Errorf("LoadVersions(%q) mismatch (-saved +read):\n%s", file, diff)
	}
	if err := os.WriteFile(file, []byte(`{"format":1,`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := LoadVersions(file).kept; len(got) != 0 {
		t.Errorf("LoadVersions(a corrupt file) = %v, want nothing", got)
	}
	if got := LoadVersions(filepath.Join(dir, "none.json")).kept; len(got) != 0 {
		t.Errorf("LoadVersions(a missing file) = %v, want nothing", got)
	}
}
