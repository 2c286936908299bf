package s3records

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		loc     string
		want    Config
		wantErr string
	}{
		{"s3://records", Config{Bucket: "records"}, ""},
		{"s3://records/", Config{Bucket: "records"}, ""},
		{"s3://records/strata/prod", Config{Bucket: "records", Prefix: "strata/prod"}, ""},
		{"s3://records/strata/", Config{Bucket: "records", Prefix: "strata"}, ""},
		{"records/strata", Config{}, "want s3://bucket/prefix"},
		{"https://records/strata", Config{}, "want s3://bucket/prefix"},
		{"s3://", Config{}, "no bucket"},
		{"s3:///strata", Config{}, "no bucket"},
		{"s3://records/a/../b", Config{}, `a ".." part`},
		{"s3://records/strata?region=eu-west-1", Config{}, "without user, query or fragment"},
		{"s3://user@records/strata", Config{}, "without user, query or fragment"},
		{"s3://rec ords/strata", Config{}, "records"},
	}
	for _, tt := range tests {
		t.Run(tt.loc, func(t *testing.T) {
			got, err := ParseURL(tt.loc)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParseURL(%q) = %+v, %v, want an error with %q", tt.loc, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !cmp.Equal(got, tt.want) {
				t.Errorf("ParseURL(%q) = %+v, %v, want %+v", tt.loc, got, err, tt.want)
			}
		})
	}
}

// FuzzParseURL checks that a location read is a bucket and a prefix that
// name no level "." or "..", and read the same again.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"s3://records", "s3://records/strata/prod", "s3://a/../b", "s3://b/%2E%2E", "s3://b/x?y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, loc string) {
		c, err := ParseURL(loc)
		if err != nil {
			return
		}
		if c.Bucket == "" || strings.Contains(c.Bucket, "/") {
			t.Fatalf("ParseURL(%q) = bucket %q, want one level", loc, c.Bucket)
		}
		for _, part := range strings.Split(c.Prefix, "/") {
			if part == "." || part == ".." {
				t.Fatalf("ParseURL(%q) = prefix %q, want no %q level", loc, c.Prefix, part)
			}
		}
		again, err := ParseURL(Scheme + c.Bucket + "/" + c.Prefix)
		if err != nil || !cmp.Equal(again, c) {
			t.Fatalf("ParseURL(ParseURL(%q)) = %+v, %v, want %+v", loc, again, err, c)
		}
	})
}

func TestSegment(t *testing.T) {
	for _, name := range []string{"network", "a/b", ".", "..", ".hidden", "100%", "sp ace", "ü", "%2E"} {
		s := segment(name)
		if strings.Contains(s, "/") || s == "." || s == ".." {
			t.Errorf("segment(%q) = %q, want one level that is not . or ..", name, s)
		}
		if got, err := unsegment(s); err != nil || got != name {
			t.Errorf("unsegment(segment(%q)) = %q, %v, want %q", name, got, err, name)
		}
	}
}
