package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPlanID feeds arbitrary bytes to the plan id: it must never panic,
// and an id, when there is one, is always "plan-" and 12 hex digits and the
// same for the same input.
func FuzzPlanID(f *testing.F) {
	matches, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, m := range matches {
		if b, err := os.ReadFile(m); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[]}`))
	f.Add([]byte(`{"resource_changes":[{"address":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		id, err := PlanID(testKey, data)
		if err != nil {
			return
		}
		if !strings.HasPrefix(id, "plan-") || len(id) != len("plan-")+12 || strings.Trim(id[5:], "0123456789abcdef") != "" {
			t.Errorf("PlanID(%q) = %q, want plan- and 12 hex digits", data, id)
		}
		if again, _ := PlanID(testKey, data); again != id {
			t.Errorf("PlanID(%q) = %q then %q, want the same", data, id, again)
		}
	})
}
