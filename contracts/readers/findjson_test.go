package readers

import (
	"strings"
	"testing"
)

// FuzzFindInJSONFile: any input either is refused with an error naming
// the file, or gives reads of fed contracts only, at positions inside the
// input.
func FuzzFindInJSONFile(f *testing.F) {
	for _, s := range []string{
		`{"output": {"x": {"value": "${var.network.public.vpc_id}"}}}`,
		`{"locals": {"a": ["${var.values[\"network\"].public.id}", 1, true, null]}}`,
		`{"module": {"m": {"n": "${var.network}"}}}`,
		`{"a": "${var.network.`,
		`[{"a": {}}, [], "x"]`,
		`{"a": "\n${var.keys.name}"}`,
	} {
		f.Add([]byte(s))
	}
	feeds := []Feed{
		{Var: "network", Contract: "network"},
		{Var: "values", Shape: DocumentSet, Contracts: []string{"network", "cluster"}},
		{Var: "keys", Shape: Keys, Contract: "cluster"},
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		reads, err := FindInJSONFile(src, "main.tf.json", feeds)
		if err != nil {
			if !strings.Contains(err.Error(), "main.tf.json") {
				t.Errorf("FindInJSONFile(%q) = %v, want an error naming the file", src, err)
			}
			return
		}
		lines := 1 + strings.Count(string(src), "\n")
		for _, r := range reads {
			if r.Contract != "network" && r.Contract != "cluster" {
				t.Errorf("FindInJSONFile(%q) read %+v, want contract network or cluster", src, r)
			}
			if r.Pos.Line < 1 || r.Pos.Column < 1 || r.Pos.Line > lines+strings.Count(string(src), `\n`) {
				t.Errorf("FindInJSONFile(%q) read at %v, outside the input", src, r.Pos)
			}
		}
	})
}
