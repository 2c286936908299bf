package modules

import (
	"errors"
	"strings"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/protocol"
)

func TestParseModule(t *testing.T) {
	tests := []struct {
		in      string
		want    Module
		wantErr string
	}{
		{"strata/echo/null", Module{"strata", "echo", "null"}, ""},
		{"Acme/Network_Core/AWS", Module{"acme", "network_core", "aws"}, ""},
		{"a-b/c-d/x1", Module{"a-b", "c-d", "x1"}, ""},
		{"strata/echo", Module{}, "want namespace/name/system"},
		{"host/strata/echo/null", Module{}, "want namespace/name/system"},
		{"_strata/echo/null", Module{}, `module namespace "_strata"`},
		{"strata/echo-/null", Module{}, `module name "echo-"`},
		{"strata/echo/nu-ll", Module{}, `module system "nu-ll"`},
		{"strata/../null", Module{}, `module name ".."`},
		{"strata/" + strings.Repeat("e", 65) + "/null", Module{}, "module name"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseModule(tt.in)
			if tt.wantErr != "" {
				if !errors.Is(err, protocol.ErrInvalid) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParseModule(%q) = %v, %v, want protocol.ErrInvalid containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseModule(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
			}
			if got.String() != strings.ToLower(tt.in) {
				t.Errorf("ParseModule(%q).String() = %q, want %q", tt.in, got.String(), strings.ToLower(tt.in))
			}
		})
	}
}
