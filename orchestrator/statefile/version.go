package statefile

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Version identifies one snapshot of a state: tofu increases Serial with
// every write, and Lineage is set once, when the state is created.
type Version struct {
	Serial  uint64 `json:"serial"`
	Lineage string `json:"lineage"`
}

// Parse reads the serial and lineage of a state file, and nothing else.
func Parse(data []byte) (Version, error) {
	var v Version
	if err := json.Unmarshal(data, &v); err != nil {
		return Version{}, fmt.Errorf("parse state: %w", err)
	}
	if v.Lineage == "" {
		return Version{}, errors.New("parse state: no lineage: not a tofu state file")
	}
	return v, nil
}

// Change says how current differs from the recorded version, in the words
// of the run log ("serial 7 → 9"), or "" when it does not.
func Change(recorded, current Version) string {
	switch {
	case recorded == current:
		return ""
	case recorded.Lineage != current.Lineage:
		return fmt.Sprintf("lineage %s → %s (serial %d → %d)", recorded.Lineage, current.Lineage, recorded.Serial, current.Serial)
	default:
		return fmt.Sprintf("serial %d → %d", recorded.Serial, current.Serial)
	}
}
