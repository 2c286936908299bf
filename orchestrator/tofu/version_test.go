package tofu

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// Version asks each binary once: a second call, for any number of stacks,
// starts no process.
func TestVersionAsksOnce(t *testing.T) {
	bin, log := tofutest.Recording(t)
	ctx := context.Background()
	for i := range 3 {
		v, err := Version(ctx, bin, "")
		if err != nil || compatible(bin, v) != nil {
			t.Fatalf("Version(%q) call %d = %q, %v, want a supported version", bin, i, v, err)
		}
	}
	if got := tofutest.Commands(t, log, "version"); len(got) != 1 {
		t.Errorf("Version(%q) three times started %q, want one version process", bin, got)
	}
}

// forgetVersions empties the versions this process keeps, as a new
// process starts.
func forgetVersions() {
	versions.Lock()
	defer versions.Unlock()
	clear(versions.byFile)
}

// With a version file, a later process takes the version from the file
// rather than asking the binary; a binary changed since, or a file that
// does not decode, is asked again, and the file written anew.
func TestVersionFile(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// between runs between the first process and the second.
		between func(t *testing.T, bin, file string)
		// wantAsked is how many times the two processes ask the binary.
		wantAsked int
	}{
		{"unchanged binary", func(*testing.T, string, string) {}, 1},
		{"binary modified since", func(t *testing.T, bin, _ string) {
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(bin, later, later); err != nil {
				t.Fatal(err)
			}
		}, 2},
		{"file that does not decode", func(t *testing.T, _, file string) {
			if err := os.WriteFile(file, []byte("{not json"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, 2},
		{"file removed", func(t *testing.T, _, file string) {
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
		}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin, log := tofutest.Recording(t)
			file := filepath.Join(t.TempDir(), "tofu-versions.json")
			forgetVersions()
			first, err := Version(ctx, bin, file)
			if err != nil {
				t.Fatalf("Version(%q, %q) = %v", bin, file, err)
			}
			tt.between(t, bin, file)
			forgetVersions()
			second, err := Version(ctx, bin, file)
			if err != nil || second != first {
				t.Fatalf("Version(%q, %q) in a later process = %q, %v, want %q", bin, file, second, err, first)
			}
			if got := tofutest.Commands(t, log, "version"); len(got) != tt.wantAsked {
				t.Errorf("tofu version commands of two processes = %q, want %d", got, tt.wantAsked)
			}
			// The file holds the binary's version as it is now.
			forgetVersions()
			if v, ok := readVersionFile(file, statKey(t, bin)); !ok || v != first {
				t.Errorf("readVersionFile(%q) = %q, %v, want %q, true", file, v, ok, first)
			}
		})
	}
}

// The version file keeps every binary's version: asking another binary
// does not forget the first's.
func TestVersionFileKeepsOtherBinaries(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "tofu-versions.json")
	a, logA := tofutest.Recording(t)
	b, logB := tofutest.Recording(t)
	forgetVersions()
	for _, bin := range []string{a, b} {
		if _, err := Version(ctx, bin, file); err != nil {
			t.Fatalf("Version(%q, %q) = %v", bin, file, err)
		}
	}
	forgetVersions()
	for _, bin := range []string{a, b} {
		if _, err := Version(ctx, bin, file); err != nil {
			t.Fatalf("Version(%q, %q) = %v", bin, file, err)
		}
	}
	for _, log := range []string{logA, logB} {
		if got := tofutest.Commands(t, log, "version"); len(got) != 1 {
			t.Errorf("tofu commands of %s in two processes = %q, want one version", log, got)
		}
	}
}

// The version file keys a binary by its absolute path: a binary named
// relative to one directory is not another directory's binary of that
// name.
func TestVersionFileRelativeBinary(t *testing.T) {
	bin, log := tofutest.Recording(t)
	file := filepath.Join(t.TempDir(), "tofu-versions.json")
	t.Chdir(filepath.Dir(bin))
	forgetVersions()
	rel := "./" + filepath.Base(bin)
	v, err := Version(context.Background(), rel, file)
	if err != nil {
		t.Fatalf("Version(%q, %q) = %v", rel, file, err)
	}
	forgetVersions()
	if got, ok := readVersionFile(file, statKey(t, bin)); !ok || got != v {
		t.Errorf("readVersionFile(%q) of %s = %q, %v, want %q, true", file, bin, got, ok, v)
	}
	if got := tofutest.Commands(t, log, "version"); len(got) != 1 {
		t.Errorf("tofu version commands = %q, want 1", got)
	}
}

// A version file that cannot be written fails the version check, naming
// the file.
func TestVersionFileUnwritable(t *testing.T) {
	bin, _ := tofutest.Recording(t)
	notDir := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(notDir, "tofu-versions.json")
	forgetVersions()
	_, err := Version(context.Background(), bin, file)
	if err == nil || !strings.Contains(err.Error(), "keep version in "+file) {
		t.Errorf("Version(%q, %q) = %v, want an error naming the file", bin, file, err)
	}
}

// statKey is the versionKey of the binary as it is now.
func statKey(t *testing.T, bin string) versionKey {
	t.Helper()
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	return versionKey{path: bin, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

func TestCompatible(t *testing.T) {
	tests := []struct {
		version string
		wantErr string
	}{
		{"1.10.6", ""},
		{"0.15.3", ""},
		{"1.11.0-beta1", ""},
		{"0.15.2", "strata needs 0.15.3 or newer"},
		{"0.12.31", "strata needs 0.15.3 or newer"},
		{"dev", "is not a version"},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			err := compatible("/bin/tofu", tt.version)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("compatible(%q) = %v, want error containing %q", tt.version, err, tt.wantErr)
			}
		})
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{`{"terraform_version":"1.10.6","platform":"linux_amd64","provider_selections":{}}`, "1.10.6", ""},
		{`{"platform":"linux_amd64"}`, "", "no terraform_version"},
		{`OpenTofu v1.10.6`, "", "parse version json"},
	}
	for _, tt := range tests {
		got, err := parseVersion([]byte(tt.in))
		if got != tt.want || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("parseVersion(%q) = %q, %v, want %q, error containing %q", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

// FuzzParseVersion feeds arbitrary bytes to the `version -json` parser: it
// returns a version or an error, never panics, and never an empty version
// without an error.
func FuzzParseVersion(f *testing.F) {
	f.Add([]byte(`{"terraform_version":"1.10.6","platform":"linux_amd64","provider_selections":{}}`))
	f.Add([]byte(`{"terraform_version":""}`))
	f.Add([]byte(`OpenTofu v1.10.6`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseVersion(data)
		if err == nil && v == "" {
			t.Errorf("parseVersion(%q) = \"\", nil, want a version or an error", data)
		}
		if err == nil {
			_ = compatible("/bin/tofu", v)
		}
	})
}
