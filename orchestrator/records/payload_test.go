package records

import (
	"bytes"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// partBytes are the parts of the tests: a cluster's.
const partBytes = 768 << 10

func TestPackUnpack(t *testing.T) {
	random := func(n int) []byte {
		b := make([]byte, n)
		rand.Read(b)
		return b
	}
	tests := []struct {
		name      string
		files     []file
		wantParts int
		wantErr   error
	}{
		{"small", []file{{"plan.tfplan", []byte("plan")}, {"summary.md", []byte("# net\n")}}, 1, nil},
		{"empty file", []file{{"plan.json", nil}}, 1, nil},
		{"compressible, larger than a part", []file{{"plan.json", bytes.Repeat([]byte(`{"a":1}`), 1<<20)}}, 1, nil},
		{"random, three parts", []file{{"plan.tfplan", random(2 * partBytes)}}, 3, nil},
		{"too large", []file{{"plan.tfplan", random(partBytes*MaxParts + 1024)}}, 0, ErrPlanTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, sum, err := pack(tt.files, partBytes)
			if !errors.Is(err, tt.wantErr) || len(parts) != tt.wantParts {
				t.Fatalf("pack(%s) = %d parts, %v, want %d, %v", tt.name, len(parts), err, tt.wantParts, tt.wantErr)
			}
			if err != nil {
				return
			}
			for i, p := range parts {
				if len(p) > partBytes {
					t.Errorf("pack(%s) part %d = %d bytes, want at most %d", tt.name, i, len(p), partBytes)
				}
			}
			got, err := unpack(parts, sum)
			if err != nil || !cmp.Equal(got, tt.files, cmp.AllowUnexported(file{}), cmp.Comparer(func(a, b []byte) bool { return bytes.Equal(a, b) })) {
				t.Errorf("unpack(pack(%s)) = %d files, %v, want the files packed", tt.name, len(got), err)
			}
			if len(parts) > 1 {
				if _, err := unpack(parts[:1], sum); err == nil {
					t.Errorf("unpack(%s, a part missing) = nil, want a digest error", tt.name)
				}
			}
		})
	}
}

// FuzzUnpack reads any bytes as a payload: an error, never a panic.
func FuzzUnpack(f *testing.F) {
	parts, sum, err := pack([]file{{"plan.tfplan", []byte("plan")}}, partBytes)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(parts[0])
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = unpack([][]byte{b}, sum)
		_, _ = unpack([][]byte{b}, digest(b))
	})
}
