package history

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestList(t *testing.T) {
	s, _ := open(t)
	for range 5 {
		begin(t, s, "acme", "dev", "network")
	}
	begin(t, s, "acme", "dev", "api")
	tests := []struct {
		stack string
		limit int
		want  []int
	}{
		{"network", 0, []int{5, 4, 3, 2, 1}},
		{"network", -1, []int{5, 4, 3, 2, 1}},
		{"network", 2, []int{5, 4}},
		{"network", 10, []int{5, 4, 3, 2, 1}},
		{"api", 0, []int{1}},
		{"cluster", 0, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s limit %d", tt.stack, tt.limit), func(t *testing.T) {
			runs, err := s.List(context.Background(), "acme", "dev", tt.stack, tt.limit)
			if err != nil {
				t.Fatalf("List(%q, %d) = %v, want nil", tt.stack, tt.limit, err)
			}
			var got []int
			for _, r := range runs {
				got = append(got, r.Number)
				if r.Stack != tt.stack {
					t.Errorf("List(%q) returned a run of %q", tt.stack, r.Stack)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("List(%q, %d) numbers mismatch (-want +got):\n%s", tt.stack, tt.limit, diff)
			}
		})
	}
}

func TestListManyRunsInNumberOrder(t *testing.T) {
	s, _ := open(t)
	// Past 255 a little-endian or decimal key would sort wrongly.
	for range 300 {
		begin(t, s, "acme", "dev", "network")
	}
	runs, err := s.List(context.Background(), "acme", "dev", "network", 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, r := range runs {
		got = append(got, r.Number)
	}
	if want := []int{300, 299, 298}; !cmp.Equal(want, got) {
		t.Errorf("List(network, 3) = %v, want %v", got, want)
	}
}
