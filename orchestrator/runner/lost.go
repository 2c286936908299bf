package runner

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// lostIn returns the resources of lost that the plan creates.
func lostIn(lost []string, p planned) []string {
	if len(lost) == 0 || p.plan == nil {
		return nil
	}
	var out []string
	for _, c := range p.plan.Changes {
		if slices.Contains(c.Actions, "create") && slices.Contains(lost, c.Address) {
			out = append(out, c.Address)
		}
	}
	return out
}

// lostReason says why a plan that creates resources lost in a crash is
// held: each may exist in the cloud without state. An import block is
// given for each whose id the plan knows.
func lostReason(lost []string, p planned) string {
	ids := importIDs(p.plan.JSON, lost)
	parts := make([]string, 0, len(lost))
	for _, a := range lost {
		s := a + " may exist in the cloud without state: import it or approve to create again"
		if id, ok := ids[a]; ok {
			s += fmt.Sprintf(" (import { to = %s  id = %q })", a, id)
		}
		parts = append(parts, s)
	}
	return CauseInterrupted + ": the last apply's tofu was killed (a pod or machine crash, or the OOM killer) while it created " +
		strings.Join(lost, ", ") + "; " + strings.Join(parts, "; ")
}

// idAttributes are, by resource type, the planned attribute that is the
// provider's import id, for the types whose id is known before they are
// created; any other type's id is known when the plan knows its id.
var idAttributes = map[string]string{
	"aws_s3_bucket":            "bucket",
	"aws_iam_role":             "name",
	"aws_iam_user":             "name",
	"aws_ssm_parameter":        "name",
	"aws_dynamodb_table":       "name",
	"aws_cloudwatch_log_group": "name",
	"aws_ecr_repository":       "name",
	"aws_sns_topic":            "name",
}

// importIDs reads, from a plan's JSON, the import id of each of addrs
// that the plan knows before creating it.
func importIDs(planJSON []byte, addrs []string) map[string]string {
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Type    string `json:"type"`
			Change  struct {
				After        map[string]any `json:"after"`
				AfterUnknown map[string]any `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	out := map[string]string{}
	if json.Unmarshal(planJSON, &plan) != nil {
		return out
	}
	for _, rc := range plan.ResourceChanges {
		if !slices.Contains(addrs, rc.Address) {
			continue
		}
		attr := "id"
		if a, ok := idAttributes[rc.Type]; ok {
			attr = a
		}
		if unknown, _ := rc.Change.AfterUnknown[attr].(bool); unknown {
			continue
		}
		if v, ok := rc.Change.After[attr].(string); ok && v != "" {
			out[rc.Address] = v
		}
	}
	return out
}
