package tofu

import (
	"context"
	"encoding/json"
	"fmt"
)

// Output is one root module output.
type Output struct {
	// Value is the JSON-decoded value.
	Value any
	// Sensitive is true for outputs declared sensitive.
	Sensitive bool
	// Type is the output's type as `tofu output -json` prints it, e.g.
	// "string" or ["list","string"].
	Type json.RawMessage
}

// Outputs reads the root module's outputs from the current state
// (`tofu output -json`).
func (w *Workspace) Outputs(ctx context.Context) (map[string]Output, error) {
	raw, err := w.tf.Output(ctx)
	if err != nil {
		return nil, fmt.Errorf("tofu output: %w", err)
	}
	out := make(map[string]Output, len(raw))
	for name, meta := range raw {
		var v any
		if len(meta.Value) > 0 {
			if err := json.Unmarshal(meta.Value, &v); err != nil {
				return nil, fmt.Errorf("tofu output %s: %w", name, err)
			}
		}
		out[name] = Output{Value: v, Sensitive: meta.Sensitive, Type: meta.Type}
	}
	return out, nil
}
