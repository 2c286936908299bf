package shard

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

// FuzzParse: no selector makes Parse panic, and every selector it takes
// names a shard whose Lease is a valid Lease name and whose Job label is
// a valid label value, and matches the same labels as its own
// Selector() read back.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", Default, "sharding.fluxcd.io/key in (shard1)", "sharding.fluxcd.io/key=Shard_1", "a in (b, c), !d", "x notin (y)", "a!=b", "a==b,c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, selector string) {
		s, err := Parse(selector)
		if err != nil {
			return
		}
		if errs := validation.IsDNS1123Subdomain(s.LeaseName("strata")); len(errs) > 0 {
			t.Errorf("Parse(%q).LeaseName(strata) = %q, not a Lease name: %v", selector, s.LeaseName("strata"), errs)
		}
		if n := s.Name(); n != "" {
			if errs := validation.IsValidLabelValue(n); len(errs) > 0 {
				t.Errorf("Parse(%q).Name() = %q, not a label value: %v", selector, n, errs)
			}
		}
		again, err := Parse(s.Selector())
		if err != nil {
			t.Fatalf("Parse(%q) = %v, want the selector %q that Parse(%q) wrote to parse", s.Selector(), err, s.Selector(), selector)
		}
		if again.Name() != s.Name() {
			t.Errorf("Parse(%q).Name() = %q, Parse of its Selector() %q names %q", selector, s.Name(), s.Selector(), again.Name())
		}
	})
}
