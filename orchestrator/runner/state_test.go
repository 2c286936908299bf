package runner

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDo(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		steps   []string // "ok", "done" or "fail"
		wantRan []int
		wantErr error
	}{
		{"every step", []string{"ok", "ok", "ok"}, []int{0, 1, 2}, nil},
		{"a failure stops the run", []string{"ok", "fail", "ok"}, []int{0, 1}, boom},
		{"a step that ends the run stops it, well", []string{"ok", "done", "ok"}, []int{0, 1}, nil},
		{"no steps", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ran []int
			var steps []step
			for i, kind := range tt.steps {
				steps = append(steps, func(_ context.Context, st *runState) error {
					ran = append(ran, i)
					switch kind {
					case "done":
						st.done = true
					case "fail":
						return boom
					}
					return nil
				})
			}
			err := do(context.Background(), &runState{}, steps)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("do(%v) = %v, want %v", tt.steps, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.wantRan, ran); diff != "" {
				t.Errorf("do(%v) ran steps mismatch (-want +got):\n%s", tt.steps, diff)
			}
		})
	}
}
