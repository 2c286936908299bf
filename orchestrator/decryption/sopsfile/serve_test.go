package sopsfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/orchestrator/decryption"
)

// isolate clears every age key source of the environment, so that a test
// sees only the keys it gives.
func isolate(t testing.TB) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv(decryption.EnvAgeKeyFile, "")
	t.Setenv(decryption.EnvAgeKey, "")
}

// TestServe sends Serve one request line of each kind, and a few it must
// refuse, and reads the response lines.
func TestServe(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	other := sopstest.NewAgeKey(t)
	r := sopstest.Recipients{Age: []string{key.Recipient}}
	secret := sopstest.Encrypt(t, "secret.json", []byte(`{"kind":"Secret","stringData":{"token":"s3cr3t"}}`), r, "")
	theirs := sopstest.Encrypt(t, "a.yaml", []byte("password: hunter2\n"), sopstest.Recipients{Age: []string{other.Recipient}}, "")
	// malformed is a file whose encrypted value was changed: it opens, but
	// does not decrypt.
	malformed := regexp.MustCompile(`password: ENC\[AES256_GCM,data:[^,]*,`).ReplaceAll(
		sopstest.Encrypt(t, "a.yaml", []byte("password: hunter2\n"), r, ""), []byte("password: ENC[AES256_GCM,data:AAAAAAAA,"))
	tests := []struct {
		name string
		req  string
		want decryption.Response
	}{
		{name: "object", req: line(t, decryption.Request{Kind: decryption.KindObject, Data: secret}),
			want: decryption.Response{Plain: []byte(`{"kind":"Secret","stringData":{"token":"s3cr3t"}}`), Encrypted: true}},
		{name: "value", req: line(t, decryption.Request{Kind: decryption.KindValue, Name: "token", Data: sopstest.Encrypt(t, "token", []byte("hunter2"), r, "")}),
			want: decryption.Response{Plain: []byte("hunter2"), Encrypted: true}},
		{name: "env value", req: line(t, decryption.Request{Kind: decryption.KindEnv, Name: "app", Data: sopstest.Encrypt(t, "app.env", []byte("USER=admin\n"), r, "")}),
			want: decryption.Response{Plain: []byte("USER=admin\n"), Encrypted: true}},
		{name: "plain value", req: line(t, decryption.Request{Kind: decryption.KindValue, Name: "x.yaml", Data: []byte("a: b\n")}),
			want: decryption.Response{Plain: []byte("a: b\n")}},
		{name: "another key", req: line(t, decryption.Request{Kind: decryption.KindValue, Name: "a.yaml", Data: theirs}),
			want: decryption.Response{Error: &decryption.WireError{Kind: "key", Recipients: []string{"age " + other.Recipient}}}},
		{name: "malformed", req: line(t, decryption.Request{Kind: decryption.KindValue, Name: "a.yaml", Data: malformed}),
			want: decryption.Response{Error: &decryption.WireError{Kind: "malformed"}}},
		{name: "not a request", req: `{"kind":"value","data":"not base64 hunter2"}`,
			want: decryption.Response{Error: &decryption.WireError{Kind: "other", Message: "decode request: not a JSON object of the protocol"}}},
		{name: "unknown kind", req: `{"kind":"shell","data":""}`,
			want: decryption.Response{Error: &decryption.WireError{Kind: "other", Message: "decode request: unknown kind (want object, value or env)"}}},
	}
	file := keyFile(t, key)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := Serve(strings.NewReader(tt.req+"\n"), &out, decryption.Keys{AgeKeyFile: file}); err != nil {
				t.Fatalf("Serve(%s) = %v", tt.name, err)
			}
			got, err := decryption.DecodeResponse(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
			if err != nil {
				t.Fatalf("Serve(%s) wrote %q: %v", tt.name, out.Bytes(), err)
			}
			opts := []cmp.Option{
				// The key sources name temporary paths; the recipients are what matter.
				cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Sources" }, cmp.Ignore()),
				cmp.Transformer("json", func(b []byte) any {
					var v any
					if json.Unmarshal(b, &v) != nil {
						return string(b)
					}
					return v
				}),
			}
			if diff := cmp.Diff(tt.want, got, opts...); diff != "" {
				t.Errorf("Serve(%s) response mismatch (-want +got):\n%s", tt.name, diff)
			}
			if strings.Contains(out.String(), "hunter2") && got.Error != nil {
				t.Errorf("Serve(%s) = %s: the error quotes the value", tt.name, out.String())
			}
		})
	}
}

// TestServeMany answers every request of one stream, in order.
func TestServeMany(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	r := sopstest.Recipients{Age: []string{key.Recipient}}
	var in strings.Builder
	var want []string
	for _, v := range []string{"one", "two", "three"} {
		in.WriteString(line(t, decryption.Request{Kind: decryption.KindValue, Name: v, Data: sopstest.Encrypt(t, v, []byte(v), r, "")}) + "\n")
		want = append(want, v)
	}
	var out bytes.Buffer
	if err := Serve(strings.NewReader(in.String()), &out, decryption.Keys{AgeKeyFile: keyFile(t, key)}); err != nil {
		t.Fatalf("Serve(3 values) = %v", err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		resp, err := decryption.DecodeResponse([]byte(l))
		if err != nil || resp.Err() != nil {
			t.Fatalf("Serve(3 values) wrote %q: %v, %v", l, err, resp.Err())
		}
		got = append(got, string(resp.Plain))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Serve(3 values) mismatch (-want +got):\n%s", diff)
	}
}

// TestCheckAgeKeyFile accepts a key file as age-keygen writes it, and
// refuses a missing file, a file of no identity and one sops cannot parse.
func TestCheckAgeKeyFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		body    string // "" writes no file
		wantErr string
	}{
		{name: "age-keygen's file", body: "# created: now\n# public key: age1x\n" + sopstest.NewAgeKey(t).Identity + "\n"},
		{name: "missing", wantErr: "no such file"},
		{name: "comments only", body: "# nothing\n", wantErr: "holds no age identity"},
		{name: "not a key", body: "AGE-SECRET-KEY-1NOTAKEY\n", wantErr: "failed to parse and add to age identities"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
			if tt.body != "" {
				if err := os.WriteFile(p, []byte(tt.body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := CheckAgeKeyFile(p)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("CheckAgeKeyFile(%q) = %v, want an error with %q", tt.name, err, tt.wantErr)
			}
		})
	}
}

// TestKeyErrorType: a value for another key is a *decryption.KeyError.
func TestKeyErrorType(t *testing.T) {
	isolate(t)
	enc := sopstest.Encrypt(t, "a.yaml", []byte("a: b\n"), sopstest.Recipients{Age: []string{sopstest.NewAgeKey(t).Recipient}}, "")
	_, _, err := New(decryption.Keys{}).Value(enc, "a.yaml")
	var ke *decryption.KeyError
	if !errors.As(err, &ke) {
		t.Errorf("Value(for another key) = %v, want a *decryption.KeyError", err)
	}
}

func line(t testing.TB, req decryption.Request) string {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func keyFile(t testing.TB, k sopstest.AgeKey) string {
	t.Helper()
	return k.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))
}
