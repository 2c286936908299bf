package scheduler

import (
	"errors"
	"testing"
)

type rootError struct{ msg string }

func (e *rootError) Error() string { return e.msg }

func TestSkipError(t *testing.T) {
	root := &rootError{"tofu apply failed"}
	inner := &SkipError{Task: "cluster", Dependency: "network", Cause: root}
	outer := &SkipError{Task: "api", Dependency: "cluster", Cause: inner}
	tests := []struct {
		name string
		err  *SkipError
		want string
	}{
		{"direct", inner, `skipped because dependency "network" did not succeed: tofu apply failed`},
		{"transitive", outer, `skipped because dependency "cluster" was skipped, after "network" did not succeed: tofu apply failed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			var r *rootError
			if !errors.As(tt.err, &r) || r != root {
				t.Errorf("errors.As(%v, *rootError) = %v, want the root error", tt.err, r)
			}
			if !errors.Is(tt.err, root) {
				t.Errorf("errors.Is(%v, root) = false, want true", tt.err)
			}
		})
	}
}
