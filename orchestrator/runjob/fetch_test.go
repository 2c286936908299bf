package runjob

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

func TestFetch(t *testing.T) {
	url, digest := testkit.ServeTarball(t, filepath.Join("testdata", "stack"))
	tests := []struct {
		name, url, digest, err string
	}{
		{"the artifact", url, digest, ""},
		{"another digest", url, "sha256:" + strings.Repeat("0", 64), "the artifact changed or was tampered with"},
		{"not sha256", url, "md5:abc", `digest "md5:abc" is not sha256:<hex>`},
		{"not there", strings.Replace(url, "127.0.0.1", "127.0.0.1:1", 1)[:len("http://127.0.0.1:1")] + "/x.tar.gz", digest, "fetch http://127.0.0.1:1/x.tar.gz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			err := fetch(context.Background(), tt.url, tt.digest, dir)
			if tt.err == "" {
				if err != nil {
					t.Fatalf("fetch(%q) = %v, want nil", tt.url, err)
				}
				if _, err := os.Stat(filepath.Join(dir, "src", "main.tf")); err != nil {
					t.Errorf("fetch(%q) unpacked no main.tf: %v", tt.url, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("fetch(%q, %q) = %v, want an error containing %q", tt.url, tt.digest, err, tt.err)
			}
			if _, err := os.Stat(filepath.Join(dir, "src")); err == nil {
				t.Errorf("fetch(%q, %q) unpacked code it refused", tt.url, tt.digest)
			}
		})
	}
}
