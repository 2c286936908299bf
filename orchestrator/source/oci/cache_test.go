package oci

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseDigest(t *testing.T) {
	good := "sha256:" + strings.Repeat("ab", 32)
	tests := []struct {
		in string
		ok bool
	}{
		{good, true},
		{"sha256:" + strings.Repeat("AB", 32), false},
		{"sha256:abc", false},
		{"sha256:../../../etc/passwd", false},
		{"sha512:" + strings.Repeat("ab", 64), false},
		{strings.Repeat("ab", 32), false},
		{"", false},
	}
	for _, tt := range tests {
		_, err := parseDigest(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("parseDigest(%q) = %v, want ok %v", tt.in, err, tt.ok)
		}
	}
}

func TestInstall(t *testing.T) {
	h, err := parseDigest("sha256:" + strings.Repeat("cd", 32))
	if err != nil {
		t.Fatal(err)
	}
	write := func(content string) func(string) error {
		return func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(content), 0o644)
		}
	}

	t.Run("a failed fill leaves nothing", func(t *testing.T) {
		c := New(Options{CacheDir: t.TempDir()})
		boom := errors.New("boom")
		_, err := c.install(h, func(dir string) error {
			_ = write("half")(dir)
			return boom
		})
		if !errors.Is(err, boom) {
			t.Errorf("install() = %v, want %v", err, boom)
		}
		if _, ok := c.Cached(h.String()); ok {
			t.Errorf("Cached(%s) = true after a failed install, want false", h)
		}
		if got := names(t, filepath.Join(c.CacheDir(), "sha256")); len(got) != 0 {
			t.Errorf("cache holds %v after a failed install, want nothing", got)
		}
	})

	t.Run("an unfinished extraction is not an entry", func(t *testing.T) {
		c := New(Options{CacheDir: t.TempDir()})
		// What a process killed mid-extraction leaves behind.
		left := filepath.Join(c.CacheDir(), "sha256", tmpPrefix+h.Hex+"-12345")
		if err := os.MkdirAll(left, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := write("half")(left); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Cached(h.String()); ok {
			t.Fatalf("Cached(%s) = true with only an unfinished extraction, want false", h)
		}
		dir, err := c.install(h, write("whole"))
		if err != nil {
			t.Fatalf("install() = %v", err)
		}
		if diff := cmp.Diff(map[string]string{"main.tf": "whole"}, tree(t, dir)); diff != "" {
			t.Errorf("install() content mismatch (-want +got):\n%s", diff)
		}
		if got, ok := c.Cached(h.String()); !ok || got != dir {
			t.Errorf("Cached(%s) = %q, %v, want %q, true", h, got, ok, dir)
		}
	})

	t.Run("stale extractions are swept", func(t *testing.T) {
		c := New(Options{CacheDir: t.TempDir()})
		parent := filepath.Join(c.CacheDir(), "sha256")
		stale := filepath.Join(parent, tmpPrefix+"old-1")
		fresh := filepath.Join(parent, tmpPrefix+"new-1")
		for _, d := range []string{stale, fresh} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		old := time.Now().Add(-2 * staleAfter)
		if err := os.Chtimes(stale, old, old); err != nil {
			t.Fatal(err)
		}
		if _, err := c.install(h, write("x")); err != nil {
			t.Fatalf("install() = %v", err)
		}
		want := []string{tmpPrefix + "new-1", h.Hex}
		if diff := cmp.Diff(want, names(t, parent)); diff != "" {
			t.Errorf("cache after install() mismatch (-want +got):\n%s", diff)
		}
	})

	t.Run("an existing entry is kept", func(t *testing.T) {
		c := New(Options{CacheDir: t.TempDir()})
		first, err := c.install(h, write("first"))
		if err != nil {
			t.Fatal(err)
		}
		second, err := c.install(h, write("second"))
		if err != nil {
			t.Fatalf("install() over an entry = %v", err)
		}
		if second != first {
			t.Errorf("install() = %q, want %q", second, first)
		}
		if diff := cmp.Diff(map[string]string{"main.tf": "first"}, tree(t, first)); diff != "" {
			t.Errorf("entry content mismatch (-want +got):\n%s", diff)
		}
		if got := names(t, filepath.Dir(first)); len(got) != 1 {
			t.Errorf("cache holds %v, want only the entry", got)
		}
	})
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	c := New(Options{})
	want := filepath.Join(os.Getenv("XDG_CACHE_HOME"), "strata", "oci")
	if got := c.CacheDir(); got != want {
		t.Errorf("New(Options{}).CacheDir() = %q, want %q", got, want)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// killHelperEnv names the cache a helper process extracts into until it
// is killed.
const killHelperEnv = "STRATA_TEST_KILLED_INSTALL_CACHE"

var killDigest = "sha256:" + strings.Repeat("ef", 32)

// TestInstallKilledHelper is the process TestInstallKilled kills in the
// middle of an extraction.
func TestInstallKilledHelper(t *testing.T) {
	dir := os.Getenv(killHelperEnv)
	if dir == "" {
		t.Skip("runs only as TestInstallKilled's helper process")
	}
	h, _ := parseDigest(killDigest)
	_, _ = New(Options{CacheDir: dir}).install(h, func(tmp string) error {
		if err := os.WriteFile(filepath.Join(tmp, "main.tf"), []byte("half"), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644); err != nil {
			return err
		}
		time.Sleep(time.Minute) // killed long before
		return nil
	})
}

// TestInstallKilled kills a process in the middle of an extraction: the
// cache has no entry for the digest, and the next install makes one.
func TestInstallKilled(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestInstallKilledHelper$")
	cmd.Env = append(os.Environ(), killHelperEnv+"="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatal("helper process did not start extracting")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	c := New(Options{CacheDir: dir})
	if got, ok := c.Cached(killDigest); ok {
		t.Fatalf("Cached(%s) = %q, true after the extracting process was killed, want false", killDigest, got)
	}
	h, _ := parseDigest(killDigest)
	entry, err := c.install(h, func(tmp string) error {
		return os.WriteFile(filepath.Join(tmp, "main.tf"), []byte("whole"), 0o644)
	})
	if err != nil {
		t.Fatalf("install() after a killed extraction = %v", err)
	}
	if diff := cmp.Diff(map[string]string{"main.tf": "whole"}, tree(t, entry)); diff != "" {
		t.Errorf("install() content mismatch (-want +got):\n%s", diff)
	}
}
