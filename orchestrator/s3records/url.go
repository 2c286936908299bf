package s3records

import (
	"fmt"
	"net/url"
	"strings"
)

// Scheme starts a records location: s3://bucket/prefix.
const Scheme = "s3://"

// ParseURL reads a records location, s3://bucket or s3://bucket/prefix,
// into the Bucket and Prefix of a Config.
func ParseURL(loc string) (Config, error) {
	rest, ok := strings.CutPrefix(loc, Scheme)
	if !ok {
		return Config{}, fmt.Errorf("records %q: want s3://bucket/prefix", loc)
	}
	u, err := url.Parse(loc)
	if err != nil {
		return Config{}, fmt.Errorf("records %q: %w", loc, err)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.Contains(rest, "?") || strings.Contains(rest, "#") {
		return Config{}, fmt.Errorf("records %q: want s3://bucket/prefix, without user, query or fragment", loc)
	}
	bucket, prefix, _ := strings.Cut(rest, "/")
	if bucket == "" || bucket != u.Host {
		return Config{}, fmt.Errorf("records %q: no bucket: want s3://bucket/prefix", loc)
	}
	for _, part := range strings.Split(strings.Trim(prefix, "/"), "/") {
		if part == "." || part == ".." {
			return Config{}, fmt.Errorf("records %q: the prefix has a %q part", loc, part)
		}
	}
	return Config{Bucket: bucket, Prefix: strings.Trim(prefix, "/")}, nil
}
