package s3

import (
	"context"
	"strings"
	"testing"
)

func TestObjectKey(t *testing.T) {
	tests := []struct {
		key     string
		want    string
		wantErr string
	}{
		{key: "/configuration/foo", want: "configuration/foo.json"},
		{key: "/foo", want: "foo.json"},
		{key: "/acme/dev/db-main", want: "acme/dev/db-main.json"},
		{key: "configuration/foo", wantErr: `invalid contract key "configuration/foo": it must start with "/"`},
		{key: "/", wantErr: "it names no document"},
		{key: "/configuration//foo", wantErr: "empty segment"},
		{key: "/configuration/foo/", wantErr: "empty segment"},
		{key: "/configuration/../foo", wantErr: `segment ".." is not allowed`},
		{key: `/a\b`, wantErr: "backslash or NUL"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			got, err := ObjectKey(tt.key)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ObjectKey(%q) = %q, %v, want an error containing %q", tt.key, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ObjectKey(%q) = %q, %v, want %q", tt.key, got, err, tt.want)
			}
			if back, ok := keyOf(got); !ok || back != tt.key {
				t.Errorf("keyOf(%q) = %q, %v, want %q", got, back, ok, tt.key)
			}
		})
	}
}

func TestKeyOfSkipsOtherObjects(t *testing.T) {
	for _, object := range []string{"configuration/foo.txt", ".json", "configuration//foo.json", "configuration/../x.json", "acme/dev/stacks/foo.tfstate"} {
		if key, ok := keyOf(object); ok {
			t.Errorf("keyOf(%q) = %q, true, want false", object, key)
		}
	}
}

func TestNew(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no bucket", Config{Region: "us-east-1"}, "open s3 contract store: no bucket"},
		{"no region", Config{Bucket: "b"}, "open s3 contract store b: no region"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(context.Background(), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New(%+v) = %v, want an error containing %q", tt.cfg, err, tt.want)
			}
		})
	}
}
