package shape

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts/readers"
)

func TestBreaks(t *testing.T) {
	at := func(line int) readers.Pos { return readers.Pos{File: "main.tf", Line: line} }
	subnets := readers.Read{Contract: "network", Section: "public", Key: "subnet_ids", Pos: at(14)}
	vpc := readers.Read{Contract: "network", Section: "public", Key: "vpc_id", Pos: at(13)}
	whole := readers.Read{Contract: "network", Pos: at(20)}
	flat := readers.Read{Contract: "network", Key: "token", Pos: at(3)}
	tests := []struct {
		name  string
		diff  Difference
		reads []readers.Read
		want  []Break
	}{
		{
			name:  "removed key read",
			diff:  Difference{Removed: []Field{pub("subnet_ids", List)}},
			reads: []readers.Read{subnets, vpc},
			want:  []Break{{Read: subnets, Field: pub("subnet_ids", List), Why: "removed"}},
		},
		{
			name:  "removed key nobody reads",
			diff:  Difference{Removed: []Field{pub("cidr", String)}},
			reads: []readers.Read{subnets, vpc},
		},
		{
			name:  "whole object passed on",
			diff:  Difference{Removed: []Field{pub("cidr", String)}},
			reads: []readers.Read{vpc, whole},
			want:  []Break{{Read: whole, Field: pub("cidr", String), Why: "removed"}},
		},
		{
			name:  "type change",
			diff:  Difference{Changed: []Change{{Field: pub("vpc_id", String), To: List}}},
			reads: []readers.Read{subnets, vpc},
			want:  []Break{{Read: vpc, Field: pub("vpc_id", String), Why: "changed from string to list"}},
		},
		{
			name:  "moved to private, read as public",
			diff:  Difference{Moved: []Move{{Field: pub("vpc_id", String), To: "private"}}},
			reads: []readers.Read{vpc},
			want:  []Break{{Read: vpc, Field: pub("vpc_id", String), Why: "moved to private"}},
		},
		{
			name:  "moved, read by key alone",
			diff:  Difference{Moved: []Move{{Field: pub("token", String), To: "private"}}},
			reads: []readers.Read{flat},
		},
		{
			name: "optional read of a key removed, moved or retyped",
			diff: Difference{
				Removed: []Field{pub("zone", String)},
				Moved:   []Move{{Field: pub("nat", String), To: "private"}},
				Changed: []Change{{Field: pub("vpc_id", String), To: List}},
			},
			reads: []readers.Read{
				{Contract: "network", Section: "public", Key: "zone", Optional: true},
				{Contract: "network", Section: "public", Key: "nat", Optional: true},
				{Contract: "network", Section: "public", Key: "vpc_id", Optional: true},
			},
			want: []Break{{
				Read:  readers.Read{Contract: "network", Section: "public", Key: "vpc_id", Optional: true},
				Field: pub("vpc_id", String), Why: "changed from string to list",
			}},
		},
		{
			name:  "added",
			diff:  Difference{Added: []Field{pub("zone", String)}},
			reads: []readers.Read{subnets, vpc, whole},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Breaks(tt.diff, tt.reads)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Breaks(%+v) mismatch (-want +got):\n%s", tt.diff, diff)
			}
		})
	}
}

func TestTouches(t *testing.T) {
	vpc := readers.Read{Contract: "network", Section: "public", Key: "vpc_id"}
	whole := readers.Read{Contract: "network"}
	d := Difference{
		Changed: []Change{{Field: pub("vpc_id", String), To: List}},
		Added:   []Field{pub("zone", String)},
	}
	tests := []struct {
		name  string
		reads []readers.Read
		want  []Field
	}{
		{"reads the changed key", []readers.Read{vpc}, []Field{pub("vpc_id", String)}},
		{"reads everything", []readers.Read{whole, vpc}, []Field{pub("vpc_id", String), pub("zone", String)}},
		{"reads nothing", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Touches(d, tt.reads)); diff != "" {
				t.Errorf("Touches(%+v) mismatch (-want +got):\n%s", tt.reads, diff)
			}
		})
	}
}
