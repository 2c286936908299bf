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
			dir := t.TempDir()
			st, err := Open(ctx, b.in(dir))
			if err != nil {
				t.Fatalf("Open(%+v) = %v, want nil", b.in(dir), err)
			}
			if got := kind(st); got != b.name {
				t.Fatalf("Open(%+v) = a %s store, want %s", b.in(dir), got, b.name)
			}
			prefix := contracts.DefaultPrefix
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
				file := filepath.Join(dir, "configuration", "foo.json")
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
		st, err := Open(ctx, b.in(t.TempDir()))
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

	// STRATA_AWS_ENDPOINT overrides the configured endpoint.
	t.Setenv(EnvEndpoint, motoEndpoint)
	cfg := Config{Kind: SSM, Region: awstest.Region, Endpoint: "http://127.0.0.1:1"}
	st, err := Open(ctx, cfg)
	if err != nil {
		t.Fatalf("Open(%+v) = %v, want nil", cfg, err)
	}
	if err := st.Put(ctx, "/configuration/foo", document(t, "foo")); err != nil {
		t.Errorf("Put() through %s = %v, want nil", EnvEndpoint, err)
	}
	t.Setenv(EnvEndpoint, "")

	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"unknown store", Config{Kind: "dynamodb"}, `open contract store "dynamodb": want local, ssm or s3`},
		{"local without a directory", Config{Kind: Local}, "open contract store local: no directory"},
		{"s3 without bucket", Config{Kind: S3, Region: "us-east-1"}, "open contract store s3: no bucket"},
		{"ssm without region", Config{Kind: SSM}, "open contract store ssm: open ssm contract store: no region"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(ctx, tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Open(%+v) = %v, want an error containing %q", tt.cfg, err, tt.want)
			}
		})
	}
}
