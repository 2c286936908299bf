package decryption

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/sopstest"
)

// TestHelperMissing: with no strata-sops where strata looks, a value that
// must be decrypted is a *HelperError that says where strata looked and
// how to install it; a value that is not encrypted needs no helper.
func TestHelperMissing(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	enc := sopstest.Encrypt(t, "token", []byte("hunter2"), sopstest.Recipients{Age: []string{key.Recipient}}, "")
	missing := filepath.Join(t.TempDir(), "strata-sops")
	tests := []struct {
		name string
		env  string
		path string // PATH
		want []string
	}{
		{name: "$STRATA_SOPS names no file", env: missing, path: os.Getenv("PATH"),
			want: []string{"$STRATA_SOPS (" + missing + ": no such file or directory)", "make build"}},
		{name: "none beside strata or on $PATH", path: t.TempDir(),
			want: []string{"$STRATA_SOPS (not set)", "(beside strata)", "$PATH", "install strata-sops beside strata"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvHelper, tt.env)
			t.Setenv("PATH", tt.path)
			d := New(t.Context(), Keys{})
			defer d.Close()
			if got, ok, err := d.Value([]byte("plain"), "token"); err != nil || ok || string(got) != "plain" {
				t.Errorf("Value(plain) = %q, %v, %v, want it unchanged with no helper", got, ok, err)
			}
			_, _, err := d.Value(enc, "token")
			var he *HelperError
			if !errors.As(err, &he) {
				t.Fatalf("Value(encrypted) = %v, want a *HelperError", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Value(encrypted) = %q, want it to say %q", err, w)
				}
			}
			if err := CheckAgeKeyFile(t.Context(), key.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))); !errors.As(err, &he) {
				t.Errorf("CheckAgeKeyFile with no helper = %v, want a *HelperError", err)
			}
		})
	}
}

// TestMalformedQuotesNothing: a value that sops cannot decrypt comes back
// from the helper as ErrMalformed, which quotes nothing of it.
func TestMalformedQuotesNothing(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	enc := sopstest.Encrypt(t, "a.yaml", []byte("password: hunter2\n"), sopstest.Recipients{Age: []string{key.Recipient}}, "")
	bad := regexp.MustCompile(`password: ENC\[AES256_GCM,data:[^,]*,`).ReplaceAll(enc, []byte("password: ENC[AES256_GCM,data:AAAAAAAA,"))
	d := New(t.Context(), Keys{AgeKeyFile: key.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))})
	defer d.Close()
	_, ok, err := d.Value(bad, "a.yaml")
	if !ok || !errors.Is(err, ErrMalformed) {
		t.Fatalf("Value(malformed) = %v, %v, want true, ErrMalformed", ok, err)
	}
	for _, line := range strings.Split(string(bad), "\n") {
		if len(line) > 12 && strings.Contains(err.Error(), strings.TrimSpace(line)) {
			t.Errorf("Value(malformed) = %q: it quotes %q", err, line)
		}
	}
}

// TestOneHelperConcurrent decrypts many values from many goroutines with
// one Decryptor: every value is right, and one strata-sops ran.
func TestOneHelperConcurrent(t *testing.T) {
	isolate(t)
	real := os.Getenv(EnvHelper)
	dir := t.TempDir()
	log := filepath.Join(dir, "starts.log")
	wrapper := filepath.Join(dir, "strata-sops")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho start >> '"+log+"'\nexec '"+real+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvHelper, wrapper)
	key := sopstest.NewAgeKey(t)
	r := sopstest.Recipients{Age: []string{key.Recipient}}
	d := New(t.Context(), Keys{AgeKeyFile: key.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))})
	values := []string{"one", "two", "three", "four", "five", "six"}
	encrypted := make([][]byte, len(values))
	for i, v := range values {
		encrypted[i] = sopstest.Encrypt(t, v, []byte(v), r, "")
	}
	got := make([]string, len(values))
	var wg sync.WaitGroup
	for i := range values {
		wg.Go(func() {
			b, _, err := d.Value(encrypted[i], values[i])
			if err != nil {
				t.Errorf("Value(%s) = %v", values[i], err)
			}
			got[i] = string(b)
		})
	}
	wg.Wait()
	if err := d.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	if diff := cmp.Diff(values, got); diff != "" {
		t.Errorf("Value mismatch (-want +got):\n%s", diff)
	}
	starts, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(starts), "start"); n != 1 {
		t.Errorf("strata-sops started %d times for %d values, want 1", n, len(values))
	}
	if _, _, err := d.Value(encrypted[0], values[0]); err == nil {
		t.Errorf("Value after Close() = nil, want an error")
	}
}

// TestHelperCancelled: the end of the Decryptor's context ends its
// helper, and what is asked after it fails.
func TestHelperCancelled(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	enc := sopstest.Encrypt(t, "token", []byte("hunter2"), sopstest.Recipients{Age: []string{key.Recipient}}, "")
	file := key.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))
	ctx, cancel := context.WithCancel(t.Context())
	d := New(ctx, Keys{AgeKeyFile: file})
	defer d.Close()
	if b, _, err := d.Value(enc, "token"); err != nil || string(b) != "hunter2" {
		t.Fatalf("Value(token) = %q, %v, want hunter2", b, err)
	}
	cancel()
	if _, _, err := d.Value(enc, "token"); !errors.Is(err, context.Canceled) {
		t.Errorf("Value(token) after cancel = %v, want context.Canceled", err)
	}
}

// TestLargeValue: a value near the largest decrypted crosses the protocol
// both ways; one above it is refused before it is sent.
func TestLargeValue(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	d := New(t.Context(), Keys{AgeKeyFile: key.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))})
	defer d.Close()
	plain := bytes.Repeat([]byte("0123456789abcdef"), (MaxSize/2)/16)
	enc := sopstest.Encrypt(t, "big", plain, sopstest.Recipients{Age: []string{key.Recipient}}, "")
	got, ok, err := d.Value(enc, "big")
	if err != nil || !ok || !bytes.Equal(got, plain) {
		t.Errorf("Value(%d bytes encrypted as %d) = %d bytes, %v, %v, want the %d bytes", len(plain), len(enc), len(got), ok, err, len(plain))
	}
	huge := append(bytes.Repeat([]byte(" "), MaxSize), enc...)
	if _, _, err := d.Value(huge, "big"); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Errorf("Value(%d bytes) = %v, want it refused as too large", len(huge), err)
	}
}
