package history

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRunJSON(t *testing.T) {
	r := Run{
		Number: 3, Client: "acme", Env: "dev", Stack: "network",
		Operation: OperationApply, Cause: "upgrade", FromVersion: "0.1.0", ToVersion: "0.2.0",
		Digest: "sha256:abc", Fingerprint: "sha256:def",
		Summary: Summary{Add: 1, Change: 2, Destroy: 3},
		Result:  ResultApplied, PlanID: "plan-1", Contract: "/configuration/network",
		StartedAt: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC),
		Duration:  1500 * time.Millisecond,
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("json.Marshal(run) = %v, want nil", err)
	}
	for _, want := range []string{`"durationMs":1500`, `"number":3`, `"summary":{"add":1,"change":2,"destroy":3}`, `"planId":"plan-1"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("json.Marshal(run) = %s, want it to contain %s", data, want)
		}
	}
	if strings.Contains(string(data), `"Duration"`) {
		t.Errorf("json.Marshal(run) = %s, want no Duration field", data)
	}
	var got Run
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("json.Unmarshal(%s) = %v, want nil", data, err)
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("JSON round trip mismatch (-want +got):\n%s", diff)
	}
}

func TestRunJSONDurationPrecision(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want time.Duration
	}{
		{0, 0},
		{time.Millisecond, time.Millisecond},
		{1999 * time.Microsecond, time.Millisecond},
		{10 * time.Minute, 10 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.in.String(), func(t *testing.T) {
			data, err := json.Marshal(Run{Duration: tt.in})
			if err != nil {
				t.Fatal(err)
			}
			var got Run
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if got.Duration != tt.want {
				t.Errorf("round trip of Duration %v = %v, want %v", tt.in, got.Duration, tt.want)
			}
		})
	}
}
