package history

import (
	"context"
	"testing"
)

func TestLastAndLastMatching(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied)   // #1
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultFailed)    // #2
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied)   // #3
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultNoChanges) // #4
	finish(t, s, begin(t, s, "acme", "dev", "api"), ResultHeld)          // api #1

	result := func(want string) func(Run) bool { return func(r Run) bool { return r.Result == want } }
	tests := []struct {
		name       string
		stack      string
		match      func(Run) bool
		wantOK     bool
		wantNumber int
	}{
		{"last", "network", nil, true, 4},
		{"last of another stack", "api", nil, true, 1},
		{"last of a stack without runs", "cluster", nil, false, 0},
		{"newest applied", "network", result(ResultApplied), true, 3},
		{"newest failed", "network", result(ResultFailed), true, 2},
		{"nothing matches", "network", result(ResultHeld), false, 0},
		{"everything matches", "network", func(Run) bool { return true }, true, 4},
		{"matching without runs", "cluster", result(ResultApplied), false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var (
				got Run
				ok  bool
				err error
			)
			if tt.match == nil {
				got, ok, err = s.Last(ctx, "acme", "dev", tt.stack)
			} else {
				got, ok, err = s.LastMatching(ctx, "acme", "dev", tt.stack, tt.match)
			}
			if err != nil {
				t.Fatalf("Last(%q) error = %v, want nil", tt.stack, err)
			}
			if ok != tt.wantOK || got.Number != tt.wantNumber {
				t.Errorf("Last(%q) = #%d, %v, want #%d, %v", tt.stack, got.Number, ok, tt.wantNumber, tt.wantOK)
			}
		})
	}
}

func TestLastUnknownEnvironment(t *testing.T) {
	s, _ := open(t)
	begin(t, s, "acme", "dev", "network")
	for _, k := range [][2]string{{"other", "dev"}, {"acme", "prod"}} {
		if _, ok, err := s.Last(context.Background(), k[0], k[1], "network"); ok || err != nil {
			t.Errorf("Last(%s/%s/network) = %v, %v, want false, nil", k[0], k[1], ok, err)
		}
	}
}
