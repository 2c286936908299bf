package stores

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/contracts/local"
	"github.com/strata-iac/strata/contracts/s3"
	"github.com/strata-iac/strata/contracts/ssm"
)

// kind names the store Open returned.
func kind(s contracts.Store) string {
	switch s.(type) {
	case *local.Store:
		return Local
	case *ssm.Store:
		return SSM
	case *s3.Store:
		return S3
	default:
		return "unknown"
	}
}

func TestOpenPublishAndRead(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stateDir := t.TempDir()
			st, err := Open(ctx, b.init, stateDir, "acme", "dev")
			if err != nil {
				t.Fatalf("Open(%v) = %v, want nil", b.init, err)
			}
			if got := kind(st); got != b.name {
				t.Fatalf("Open(%v) = a %s store, want %s", b.init, got, b.name)
			}
			prefix, err := Prefix(b.init)
			if err != nil {
				t.Fatal(err)
			}
			key := contracts.Key(prefix, "foo")
			want := document(t, "foo")
			if err := st.Put(ctx, key, want); err != nil {
				t.Fatalf("Put(%q) = %v, want nil", key, err)
			}
			got, err := st.Get(ctx, key)
			if err != nil {
				t.Fatalf("Get(%q) = %v, want nil", key, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Get(%q) mismatch (-want +got):\n%s", key, diff)
			}
			// ExternalSecret: remoteRef.key /configuration/foo,
			// property private.database.endpoint.
			if v, ok := got.Lookup("private.database.endpoint"); !ok || v != "db.internal" {
				t.Errorf("Get(%q).Lookup(%q) = %v, %v, want db.internal", key, "private.database.endpoint", v, ok)
			}
			keys, err := st.List(ctx, prefix)
			if err != nil || !cmp.Equal(keys, []string{"/configuration/foo"}) {
				t.Errorf("List(%q) = %v, %v, want [/configuration/foo]", prefix, keys, err)
			}
			if _, err := st.Get(ctx, contracts.Key(prefix, "missing")); !errors.Is(err, contracts.ErrNotFound) {
				t.Errorf("Get(%q) = %v, want an error wrapping ErrNotFound", contracts.Key(prefix, "missing"), err)
			}
			if b.name == Local {
				file := filepath.Join(stateDir, "contracts", "acme", "dev", "configuration", "foo.json")
				if _, err := os.Stat(file); err != nil {
					t.Errorf("Stat(%q) = %v, want the local store's file", file, err)
				}
			}
		})
	}
}

func TestOpenPutRejectsInvalidDocuments(t *testing.T) {
	ctx := context.Background()
	bad := map[string]func(d *contracts.Document){
		"no stack":    func(d *contracts.Document) { d.Stack = "" },
		"nil public":  func(d *contracts.Document) { d.Public = nil },
		"nil private": func(d *contracts.Document) { d.Private = nil },
	}
	for _, b := range backends(t) {
		st, err := Open(ctx, b.init, t.TempDir(), "acme", "dev")
		if err != nil {
			t.Fatal(err)
		}
		for name, change := range bad {
			t.Run(b.name+"/"+name, func(t *testing.T) {
				d := document(t, "x")
				change(&d)
				key := "/configuration/" + strings.ReplaceAll(name, " ", "-")
				err := st.Put(ctx, key, d)
				if !errors.Is(err, contracts.ErrInvalid) || !strings.Contains(err.Error(), "put contract "+key) {
					t.Errorf("Put(%q) = %v, want an error naming the key wrapping ErrInvalid", key, err)
				}
				if _, err := st.Get(ctx, key); !errors.Is(err, contracts.ErrNotFound) {
					t.Errorf("Get(%q) after a rejected Put = %v, want ErrNotFound", key, err)
				}
			})
		}
	}
}

func TestOpenSettings(t *testing.T) {
	ctx := context.Background()
	motoEndpoint := awstest.Moto(t)
	awstest.Env(t, "testing", "testing")
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")

	// The region comes from the init key region when contractRegion is
	// not set, and STRATA_AWS_ENDPOINT overrides contractEndpoint.
	t.Setenv(EnvEndpoint, motoEndpoint)
	st, err := Open(ctx, map[string]string{KeyStore: SSM, KeyInitRegion: awstest.Region, KeyEndpoint: "http://127.0.0.1:1"}, "", "", "")
	if err != nil {
		t.Fatalf("Open(ssm) = %v, want nil", err)
	}
	if err := st.Put(ctx, "/configuration/foo", document(t, "foo")); err != nil {
		t.Errorf("Put() through %s = %v, want nil", EnvEndpoint, err)
	}
	t.Setenv(EnvEndpoint, "")

	tests := []struct {
		name string
		init map[string]string
		want string
	}{
		{"unknown store", map[string]string{KeyStore: "dynamodb"}, `open contract store: init key contractStore is "dynamodb": want local, ssm or s3`},
		{"s3 without bucket", map[string]string{KeyStore: S3, KeyRegion: "us-east-1"}, "open contract store s3: init key contractBucket is required when contractStore is s3"},
		{"bad path style", map[string]string{KeyStore: S3, KeyRegion: "us-east-1", KeyBucket: "b", KeyPathStyle: "sometimes"}, `init key contractPathStyle is "sometimes": want true or false`},
		{"ssm without region", map[string]string{KeyStore: SSM}, "open contract store ssm: open ssm contract store: no region"},
		{"bad prefix", map[string]string{KeyPrefix: "/configuration/../x"}, `open contract store: init key contractPrefix is "/configuration/../x": segment ".." is not allowed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(ctx, tt.init, t.TempDir(), "acme", "dev")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Open(%v) = %v, want an error containing %q", tt.init, err, tt.want)
			}
		})
	}
	if _, err := Open(ctx, map[string]string{}, t.TempDir(), "", "dev"); err == nil {
		t.Errorf("Open(local) without a client = nil, want an error")
	}
}

func TestPrefix(t *testing.T) {
	tests := []struct {
		value string
		want  string
	}{
		{"", "/configuration"},
		{"/configuration", "/configuration"},
		{"configuration/", "/configuration"},
		{"/acme/dev/contracts", "/acme/dev/contracts"},
		{"/", "/"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, err := Prefix(map[string]string{KeyPrefix: tt.value})
			if err != nil || got != tt.want {
				t.Errorf("Prefix(%q) = %q, %v, want %q", tt.value, got, err, tt.want)
			}
		})
	}
	if _, err := Prefix(map[string]string{KeyPrefix: "/a//b"}); err == nil || !strings.Contains(err.Error(), "contract prefix: init key contractPrefix") {
		t.Errorf("Prefix(%q) = %v, want an error naming the key", "/a//b", err)
	}
}
