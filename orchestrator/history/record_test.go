package history

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRecord(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	r := begin(t, s, "acme", "dev", "network")
	r.Result = ResultFailed
	r.Error = "tofu plan: exit status 1"
	r.Duration = 2 * time.Second
	if err := s.Record(ctx, r); err != nil {
		t.Fatalf("Record(#%d) = %v, want nil", r.Number, err)
	}
	got, ok, err := s.Last(ctx, "acme", "dev", "network")
	if err != nil || !ok {
		t.Fatalf("Last() = %v, %v, want a run", ok, err)
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("Last() after Record mismatch (-want +got):\n%s", diff)
	}
}

func TestRecordErrors(t *testing.T) {
	s, _ := open(t)
	r := begin(t, s, "acme", "dev", "network")
	tests := []struct {
		name string
		run  Run
		want string
	}{
		{"never begun", Run{Client: "acme", Env: "dev", Stack: "network", Number: 2},
			"record run acme/dev/network #2: no such run: Begin it first"},
		{"no number", Run{Client: "acme", Env: "dev", Stack: "network"},
			"record run acme/dev/network #0: no such run: Begin it first"},
		{"unknown stack", Run{Client: "acme", Env: "dev", Stack: "api", Number: r.Number},
			"record run acme/dev/api #1: no such run: Begin it first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Record(context.Background(), tt.run)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Record(%+v) = %v, want %q", tt.run, err, tt.want)
			}
		})
	}
}
