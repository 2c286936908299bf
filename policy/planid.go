package policy

import (
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
)

// planIDPrefix starts every plan id.
const planIDPrefix = "plan-"

// changeKeys are the keys of a resource change that say what the change
// does. Everything else — the timestamp, the tofu version, variables,
// configuration, prior state, planned values, action_reason — says how or
// when it was planned, not what would change.
var changeKeys = []string{
	"address", "previous_address", "deposed", "mode", "type", "provider_name", "change",
}

// changeFields are the keys of a change object that are part of the id.
var changeFields = []string{
	"actions", "before", "after", "after_unknown", "before_sensitive", "after_sensitive",
	"replace_paths", "importing",
}

// PlanID names a plan by its content: "plan-" and the first 12 hex digits
// of an HMAC-SHA256, under key, over the canonical JSON (sorted keys) of
// its resource changes (address, actions, before, after, unknown and
// sensitive values, replace paths) and its output changes. The same change
// planned twice — at other times, from another source revision, by another
// tofu version — has the same id under the same key; any other change, or
// the same change from another prior state, has another. An approval is
// given to a plan id, so it applies to that change only.
//
// The id is keyed because a plan can hold private values: a plain hash of
// a plan whose only unknown is a weak password could be tested offline
// against guesses by anyone who reads an id. key is the environment's hash
// key (orchestrator/hashkey); it must not be empty.
func PlanID(key, planJSON []byte) (string, error) {
	if len(key) == 0 {
		return "", fmt.Errorf("plan id: no key")
	}
	canonical, err := canonicalChanges(planJSON)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write(canonical)
	return planIDPrefix + hex.EncodeToString(m.Sum(nil))[:12], nil
}

// NoChangesPlanID is the id of a plan that changes nothing: the keyed
// hash of no changes, the same for every such plan of an environment. It
// names the plan a run without changes saves where the Tofu Controller
// keeps every plan; nothing of it is ever held or approved.
func NoChangesPlanID(key []byte) (string, error) {
	return PlanID(key, []byte(`{"format_version":"1.2"}`))
}

// UnkeyedPlanID is the id strata gave a plan before plan ids were keyed: a
// plain SHA-256 over the same canonical changes. It is never shown; a
// runner compares it with an approval given before the upgrade, so that a
// plan held and approved then is still applied.
func UnkeyedPlanID(planJSON []byte) (string, error) {
	canonical, err := canonicalChanges(planJSON)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canonical)
	return planIDPrefix + hex.EncodeToString(sum[:])[:12], nil
}

// canonicalChanges is the bytes a plan id is derived from: what the plan
// changes, and nothing of how or when it was planned.
func canonicalChanges(planJSON []byte) ([]byte, error) {
	plan, err := decodePlan(planJSON)
	if err != nil {
		return nil, fmt.Errorf("plan id: %w", err)
	}
	changes, err := resourceChanges(plan["resource_changes"])
	if err != nil {
		return nil, fmt.Errorf("plan id: %w", err)
	}
	outputs := plan["output_changes"]
	if outputs == nil {
		outputs = map[string]any{}
	}
	// json.Marshal writes object keys in sorted order and json.Number as
	// printed, so the bytes depend on the content only.
	canonical, err := json.Marshal(map[string]any{
		"resource_changes": changes,
		"output_changes":   outputs,
	})
	if err != nil {
		return nil, fmt.Errorf("plan id: %w", err)
	}
	return canonical, nil
}

// resourceChanges keeps what each change does, sorted by address and
// deposed key.
func resourceChanges(v any) ([]map[string]any, error) {
	if v == nil {
		return []map[string]any{}, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("resource_changes: want a list, got %T", v)
	}
	out := make([]map[string]any, 0, len(list))
	for i, item := range list {
		rc, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("resource_changes[%d]: want an object, got %T", i, item)
		}
		kept := pick(rc, changeKeys)
		if ch, ok := rc["change"].(map[string]any); ok {
			kept["change"] = pick(ch, changeFields)
		}
		out = append(out, kept)
	}
	slices.SortStableFunc(out, func(a, b map[string]any) int {
		return cmp.Or(
			cmp.Compare(fmt.Sprint(a["address"]), fmt.Sprint(b["address"])),
			cmp.Compare(fmt.Sprint(a["deposed"]), fmt.Sprint(b["deposed"])),
		)
	})
	return out, nil
}

func pick(m map[string]any, keys []string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}
