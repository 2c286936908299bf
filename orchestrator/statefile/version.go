package statefile

import (
	"bytes"
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
//
// A reconcile reads every stack's state, and a state's resources are
// most of it: when the file is valid JSON (json.Valid, which decodes
// nothing), its top-level keys are read only until serial and lineage,
// which tofu writes before the resources, are both found.
func Parse(data []byte) (Version, error) {
	if !json.Valid(data) {
		var v Version
		err := json.Unmarshal(data, &v)
		return Version{}, fmt.Errorf("parse state: %w", err)
	}
	v, err := parseHead(data)
	if err != nil {
		return Version{}, fmt.Errorf("parse state: %w", err)
	}
	if v.Lineage == "" {
		return Version{}, errors.New("parse state: no lineage: not a tofu state file")
	}
	return v, nil
}

// parseHead reads serial and lineage from a state that is valid JSON,
// skipping every other top-level value, and stops once it has both. A
// key given twice counts once (the first).
func parseHead(data []byte) (Version, error) {
	var v Version
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		var m map[string]json.RawMessage
		return v, json.Unmarshal(data, &m) // not an object: its error
	}
	var haveSerial, haveLineage bool
	for dec.More() && !(haveSerial && haveLineage) {
		t, err := dec.Token()
		if err != nil {
			return v, err
		}
		switch key, _ := t.(string); {
		case key == "serial" && !haveSerial:
			haveSerial = true
			err = dec.Decode(&v.Serial)
		case key == "lineage" && !haveLineage:
			haveLineage = true
			err = dec.Decode(&v.Lineage)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return v, err
		}
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
