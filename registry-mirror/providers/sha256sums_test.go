package providers

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

func TestSHA256Sums(t *testing.T) {
	a, b := strings.Repeat("a", 64), strings.Repeat("B", 64)
	sums := map[string]string{"x_linux_amd64.zip": a, "x_darwin_arm64.zip": strings.ToLower(b)}
	doc := formatSHA256Sums(sums)
	want := strings.Repeat("b", 64) + "  x_darwin_arm64.zip\n" + a + "  x_linux_amd64.zip\n"
	if string(doc) != want {
		t.Errorf("formatSHA256Sums() = %q, want %q", doc, want)
	}

	tests := []struct {
		name    string
		doc     string
		want    map[string]string
		wantErr error
	}{
		{"formatted", string(doc), sums, nil},
		{"one space, upper case, CRLF, blank lines", a + " x.zip\r\n\n" + b + " y.zip\n", map[string]string{"x.zip": a, "y.zip": strings.ToLower(b)}, nil},
		{"binary mode", a + " *x.zip\n", map[string]string{"x.zip": a}, nil},
		{"empty", "", map[string]string{}, nil},
		{"short sum", "abc  x.zip\n", nil, protocol.ErrInvalid},
		{"no name", a + "\n", nil, protocol.ErrInvalid},
		{"not hex", strings.Repeat("z", 64) + "  x.zip\n", nil, protocol.ErrInvalid},
		{"space in name", a + "  x y.zip\n", nil, protocol.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseSHA256Sums([]byte(tt.doc))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("parseSHA256Sums(%q) = %v, want %v", tt.doc, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); err == nil && diff != "" {
				t.Errorf("parseSHA256Sums(%q) mismatch (-want +got):\n%s", tt.doc, diff)
			}
		})
	}
	if got, want := SHA256SumsName("strata", "0.1.0"), "terraform-provider-strata_0.1.0_SHA256SUMS"; got != want {
		t.Errorf("SHA256SumsName(strata, 0.1.0) = %q, want %q", got, want)
	}
}
