package tofu

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hook is one line of tofu's -json apply stream about a resource.
func hook(typ, addr, action string) string {
	return `{"@level":"info","@message":"` + addr + `: ` + typ + `","@module":"tofu.ui","type":"` + typ + `","hook":{"resource":{"addr":"` + addr + `","resource_type":"terraform_data","resource_name":"crash"},"action":"` + action + `"}}`
}

func TestInFlightCreates(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stream []string
		want   []InFlight
	}{
		{"none started", []string{`{"@level":"info","type":"version","tofu":"1.9"}`}, nil},
		{"all complete", []string{hook("apply_start", "a.x", "create"), hook("apply_complete", "a.x", "create")}, nil},
		{"one in flight", []string{
			hook("apply_start", "a.x[0]", "create"), hook("apply_complete", "a.x[0]", "create"),
			hook("apply_start", "a.x[1]", "create"), hook("apply_progress", "a.x[1]", "create"),
			hook("apply_start", "a.x[2]", "create"),
		}, []InFlight{{"a.x[1]"}, {"a.x[2]"}}},
		{"errored is not in flight", []string{hook("apply_start", "a.x", "create"), hook("apply_errored", "a.x", "create")}, nil},
		{"an update in flight is no create", []string{hook("apply_start", "a.x", "update")}, nil},
		{"torn last line", []string{hook("apply_start", "a.x", "create"), `{"@level":"info","type":"apply_compl`}, []InFlight{{"a.x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := InFlightCreates(strings.NewReader(strings.Join(tc.stream, "\n") + "\n"))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("InFlightCreates(%q) = %v, want %v (-want +got):\n%s", tc.name, got, tc.want, d)
			}
		})
	}
}
