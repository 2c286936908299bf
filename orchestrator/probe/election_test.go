package probe

import (
	"fmt"
	"testing"
)

// seen is what an election saw: whether this process leads, and the
// leader.
type seen struct {
	leading bool
	leader  string
}

func (s seen) Leader() (bool, string) { return s.leading, s.leader }
func (s seen) Lease() string          { return "strata-system/strata" }

func TestElection(t *testing.T) {
	tests := []struct {
		seen    seen
		want    string
		wantErr string
	}{
		{seen{leading: true, leader: "pod-a_1"}, "leads the lease strata-system/strata", ""},
		{seen{leader: "pod-a_1"}, "follows pod-a_1 on the lease strata-system/strata", ""},
		{seen{}, "", "no leader seen yet on the lease strata-system/strata"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v", tt.seen), func(t *testing.T) {
			got, err := Election(tt.seen)()
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if got != tt.want || gotErr != tt.wantErr {
				t.Errorf("Election(%+v)() = %q, %q; want %q, %q", tt.seen, got, gotErr, tt.want, tt.wantErr)
			}
		})
	}
}
