package contracts

import (
	"encoding/json"
	"time"
)

// Document is one contract: a producer stack's published outputs.
type Document struct {
	// Installed is true once the producer has applied.
	Installed bool `json:"installed"`
	// Version is the producer's version.
	Version string `json:"version"`
	// Stack is the producer's name.
	Stack string `json:"stack"`
	// UpdatedAt is when the document was built, UTC, to the second.
	UpdatedAt time.Time `json:"updatedAt"`
	// Public holds the values anyone may read. Never nil after Build.
	Public map[string]any `json:"public"`
	// Private holds the sensitive values. Never nil after Build.
	Private map[string]any `json:"private"`
	// Types holds, for each key of Public and Private whose producer
	// output's type is known, the JSON text of that type exactly as
	// `tofu output -json` prints it, indentation and all (e.g. "number",
	// ["list","string"]). It lets the key be written to a Tofu Controller
	// output Secret with its "<key>.type" companion, byte for byte.
	Types map[string]string `json:"types,omitempty"`
}

// Output is one output of a stack, as tofu reports it.
type Output struct {
	// Value is already JSON-decoded: string, float64, bool, nil, []any or
	// map[string]any.
	Value any
	// Sensitive is true for an output declared sensitive.
	Sensitive bool
	// Type is the output's type as `tofu output -json` prints it; empty
	// when unknown.
	Type json.RawMessage
}
