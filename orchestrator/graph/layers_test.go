package graph

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLayers(t *testing.T) {
	g := mustBuild(t, example())
	type summary struct {
		Number int
		Label  string
		Names  []string
	}
	var got []summary
	for _, l := range g.layers() {
		s := summary{Number: l.number, Label: l.label}
		for _, n := range l.nodes {
			s.Names = append(s.Names, n.Name)
		}
		got = append(got, s)
	}
	want := []summary{
		{0, "account", []string{"account"}},
		{1, "network", []string{"network"}},
		{2, "cluster", []string{"cluster"}},
		{3, "services", []string{"database", "api", "monitoring"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("layers() mismatch (-want +got):\n%s", diff)
	}
}
