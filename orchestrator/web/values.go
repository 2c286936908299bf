package web

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/strata-iac/strata/orchestrator/environment"
)

type (
	environmentInput = environment.Input
	environmentMatch = environment.MatchInput
)

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// jsonValue writes a public value for people: a string as it is, anything
// else as JSON.
func jsonValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}
