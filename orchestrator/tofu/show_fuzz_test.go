package tofu

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParsePlan feeds arbitrary bytes to the plan JSON parser: it must
// return a plan or an error, never panic, and keep the JSON as given.
func FuzzParsePlan(f *testing.F) {
	matches, _ := filepath.Glob(filepath.Join("..", "..", "policy", "testdata", "*.json"))
	for _, m := range matches {
		if b, err := os.ReadFile(m); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"resource_changes":[{"address":"a.b","change":{"actions":["delete","create"]}}]}`))
	f.Add([]byte(`{"resource_changes":[null,{"change":null}],"output_changes":{"x":null}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePlan(data)
		if err != nil {
			return
		}
		if string(p.JSON) != string(data) {
			t.Errorf("ParsePlan(%q).JSON changed the input", data)
		}
		for _, c := range p.Changes {
			_ = c.Verb()
		}
		_ = p.Summary()
	})
}
