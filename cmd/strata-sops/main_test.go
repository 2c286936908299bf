package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/orchestrator/decryption"
)

// TestRun runs strata-sops as strata does, and as a person might: the
// help, the key file check, a request on stdin, arguments it refuses.
func TestRun(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv(decryption.EnvAgeKeyFile, "")
	t.Setenv(decryption.EnvAgeKey, "")
	key := sopstest.NewAgeKey(t)
	keyFile := key.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))
	notKey := filepath.Join(t.TempDir(), "not.txt")
	if err := os.WriteFile(notKey, []byte("# no key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	enc := sopstest.Encrypt(t, "token", []byte("hunter2"), sopstest.Recipients{Age: []string{key.Recipient}}, "")
	var req bytes.Buffer
	if err := decryption.WriteLine(&req, decryption.Request{Kind: decryption.KindValue, Name: "token", Data: enc}); err != nil {
		t.Fatal(err)
	}
	var wantResp bytes.Buffer
	if err := decryption.WriteLine(&wantResp, decryption.Response{Plain: []byte("hunter2"), Encrypted: true}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		stdin      string
		code       int
		stdout     string // contained
		stderr     string // contained
		stdoutSame bool   // stdout is exactly stdout
	}{
		{name: "help", args: []string{"--help"}, code: 0, stdout: "strata runs it"},
		{name: "check a key file", args: []string{"check-age-key-file", keyFile}, code: 0},
		{name: "check a file of no key", args: []string{"check-age-key-file", notKey}, code: 1, stderr: "holds no age identity"},
		{name: "serve", args: []string{"--age-key-file", keyFile}, stdin: req.String(), code: 0, stdout: wantResp.String(), stdoutSame: true},
		{name: "unknown argument", args: []string{"decrypt"}, code: 2, stderr: "unexpected arguments"},
		{name: "unknown flag", args: []string{"--kms"}, code: 2, stderr: "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.code || !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.stderr) ||
				tt.stdoutSame && stdout.String() != tt.stdout {
				t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, stdout with %q, stderr with %q",
					tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}
