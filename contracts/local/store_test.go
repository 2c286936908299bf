package local

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	s := New("/state/contracts")
	tests := []struct {
		key     string
		want    string
		wantErr string
	}{
		{key: "/configuration/network", want: "/state/contracts/configuration/network.json"},
		{key: "/network", want: "/state/contracts/network.json"},
		{key: "/acme/dev/db-main", want: "/state/contracts/acme/dev/db-main.json"},
		{key: "configuration/network", wantErr: `invalid contract key "configuration/network": it must start with "/"`},
		{key: "", wantErr: `invalid contract key "": it must start with "/"`},
		{key: "/", wantErr: `invalid contract key "/": it names no document`},
		{key: "/configuration//network", wantErr: `invalid contract key "/configuration//network": empty segment`},
		{key: "/configuration/network/", wantErr: `invalid contract key "/configuration/network/": empty segment`},
		{key: "/configuration/../../etc/passwd", wantErr: `invalid contract key "/configuration/../../etc/passwd": segment ".." is not allowed`},
		{key: "/..", wantErr: `segment ".." is not allowed`},
		{key: "/./x", wantErr: `segment "." is not allowed`},
		{key: `/a\b`, wantErr: "backslash or NUL"},
		{key: "/a\x00b", wantErr: "backslash or NUL"},
		{key: "/configuration/.hidden", wantErr: "starts with a dot"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			got, err := s.path(tt.key)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("path(%q) = %q, %v, want an error containing %q", tt.key, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != filepath.FromSlash(tt.want) {
				t.Errorf("path(%q) = %q, %v, want %q", tt.key, got, err, tt.want)
			}
		})
	}
}
