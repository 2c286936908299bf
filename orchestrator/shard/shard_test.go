package shard

import (
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		selector            string
		name, lease, jobs   string
		matches, notMatches []map[string]string
	}{
		{
			selector: Default, name: "", lease: "strata", jobs: "!strata.dev/shard",
			matches:    []map[string]string{nil, {"app": "x"}},
			notMatches: []map[string]string{{Key: "shard1"}, {Key: ""}},
		},
		{
			selector: "sharding.fluxcd.io/key in (shard1)", name: "shard1", lease: "strata-shard1", jobs: "strata.dev/shard=shard1",
			matches:    []map[string]string{{Key: "shard1"}},
			notMatches: []map[string]string{nil, {Key: "shard2"}},
		},
		{
			selector: " sharding.fluxcd.io/key=shard2 ", name: "shard2", lease: "strata-shard2", jobs: "strata.dev/shard=shard2",
			matches:    []map[string]string{{Key: "shard2"}},
			notMatches: []map[string]string{{Key: "shard1"}},
		},
		{
			selector: "sharding.fluxcd.io/key in (b, a)", name: "a-b", lease: "strata-a-b", jobs: "strata.dev/shard=a-b",
			matches:    []map[string]string{{Key: "a"}, {Key: "b"}},
			notMatches: []map[string]string{{Key: "c"}},
		},
		{
			selector: "", name: "all", lease: "strata-all", jobs: "strata.dev/shard=all",
			matches: []map[string]string{nil, {Key: "shard1"}},
		},
		{
			selector: "sharding.fluxcd.io/key=Shard_1", name: "s-", lease: "strata-s-", jobs: "strata.dev/shard=s-",
			matches: []map[string]string{{Key: "Shard_1"}},
		},
		{
			selector: "team=a", name: "s-", lease: "strata-s-", jobs: "strata.dev/shard=s-",
			matches:    []map[string]string{{"team": "a"}},
			notMatches: []map[string]string{{"team": "b"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.selector, func(t *testing.T) {
			s, err := Parse(tt.selector)
			if err != nil {
				t.Fatalf("Parse(%q) = %v", tt.selector, err)
			}
			name := s.Name()
			if len(tt.name) == 2 && tt.name == "s-" && len(name) == 12 && name[:2] == "s-" {
				name = "s-" // a hash: its length and prefix are what is fixed
			}
			if name != tt.name {
				t.Errorf("Parse(%q).Name() = %q, want %q", tt.selector, s.Name(), tt.name)
			}
			if got := s.LeaseName("strata"); got[:min(len(got), len(tt.lease))] != tt.lease {
				t.Errorf("Parse(%q).LeaseName() = %q, want %q", tt.selector, got, tt.lease)
			}
			if got := s.JobSelector(); got[:min(len(got), len(tt.jobs))] != tt.jobs {
				t.Errorf("Parse(%q).JobSelector() = %q, want %q", tt.selector, got, tt.jobs)
			}
			for _, l := range tt.matches {
				if !s.Matches(l) {
					t.Errorf("Parse(%q).Matches(%v) = false, want true", tt.selector, l)
				}
			}
			for _, l := range tt.notMatches {
				if s.Matches(l) {
					t.Errorf("Parse(%q).Matches(%v) = true, want false", tt.selector, l)
				}
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	for _, sel := range []string{"a in (", "=x", "sharding.fluxcd.io/key in shard1", "a!!b"} {
		if _, err := Parse(sel); err == nil {
			t.Errorf("Parse(%q) = nil error, want one", sel)
		}
	}
}

func TestHashedNamesDiffer(t *testing.T) {
	a, _ := Parse("team=a")
	b, _ := Parse("team=b")
	if a.Name() == b.Name() {
		t.Errorf("Parse(team=a).Name() = Parse(team=b).Name() = %q, want two names", a.Name())
	}
}

func TestZeroShard(t *testing.T) {
	var s Shard
	if !s.Matches(map[string]string{Key: "x"}) || !s.IsDefault() || s.Selector() != "" || s.JobLabels() != nil {
		t.Errorf("Shard{} = matches %v, default %v, selector %q, job labels %v; want every object, the default shard's Jobs",
			s.Matches(map[string]string{Key: "x"}), s.IsDefault(), s.Selector(), s.JobLabels())
	}
}

func TestDescribe(t *testing.T) {
	s, _ := Parse("sharding.fluxcd.io/key in (shard1), team=a")
	tests := []struct {
		labels map[string]string
		want   string
	}{
		{nil, "no sharding.fluxcd.io/key label, no team label"},
		{map[string]string{Key: "shard2", "team": "a", "other": "x"}, "sharding.fluxcd.io/key=shard2, team=a"},
	}
	for _, tt := range tests {
		if got := s.Describe(tt.labels); got != tt.want {
			t.Errorf("Describe(%v) = %q, want %q", tt.labels, got, tt.want)
		}
	}
}
