package suggest

import "testing"

func TestClosest(t *testing.T) {
	tests := []struct {
		s          string
		candidates []string
		want       string
		dist       int
	}{
		{"varsFromm", []string{"vars", "varsFrom", "values"}, "varsFrom", 1},
		{"KUSTOMIZATION", []string{"Kustomization", "GitRepository"}, "Kustomization", 0},
		{"ab", []string{"ax", "ay"}, "ax", 1},
		{"x", nil, "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.s, func(t *testing.T) {
			got, dist := Closest(tt.s, tt.candidates)
			if got != tt.want || dist != tt.dist {
				t.Errorf("Closest(%q, %q) = %q, %d, want %q, %d", tt.s, tt.candidates, got, dist, tt.want, tt.dist)
			}
		})
	}
}
