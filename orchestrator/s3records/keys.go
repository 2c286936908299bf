package s3records

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/strata-iac/strata/orchestrator/records"
)

// The objects under the prefix:
//
//	runs/<client>/<env>/<stack>/<number, 10 digits>.json
//	held/<client>/<env>/<stack>/<plan id>/record.json
//	held/<client>/<env>/<stack>/<plan id>/<plan file, plan JSON, summary>
//	claims.json
//	artifacts/<client>/<env>/<stack>/<sha256 hex>/<part, 10 digits>
//
// Each name is path-escaped (segment), so that a "/" in a name never
// makes another level and "." or ".." never reads as one.
const (
	runsDir    = "runs/"
	heldDir    = "held/"
	keptDir    = "artifacts/"
	recordName = "record.json"
	claimsName = "claims.json"
	runDigits  = 10
)

// cleanPrefix is the prefix with one trailing "/", or "" for the root.
func cleanPrefix(p string) string {
	p = strings.Trim(p, "/")
	if p == "" {
		return ""
	}
	return p + "/"
}

// segment escapes a name as one level of an object's name.
func segment(name string) string {
	s := url.PathEscape(name)
	if strings.HasPrefix(s, ".") {
		s = "%2E" + s[1:]
	}
	return s
}

// unsegment is the name a level of an object's name escapes.
func unsegment(s string) (string, error) { return url.PathUnescape(s) }

// envRuns is the prefix of an environment's runs.
func (o *objects) envRuns(client, env string) string {
	return o.prefix + runsDir + segment(client) + "/" + segment(env) + "/"
}

// stackHeld is the prefix of a stack's held plans.
func (o *objects) stackHeld(client, env, stack string) string {
	return o.prefix + heldDir + segment(client) + "/" + segment(env) + "/" + segment(stack) + "/"
}

// planDir is the prefix of a held plan's objects; its id is checked
// (approval.ValidID) before.
func (o *objects) planDir(k records.Key) string {
	return o.stackHeld(k.Client, k.Env, k.Stack) + k.Plan + "/"
}

// stackKept is the prefix of a stack's kept artifacts.
func (o *objects) stackKept(client, env, stack string) string {
	return o.prefix + keptDir + segment(client) + "/" + segment(env) + "/" + segment(stack) + "/"
}

// key is the name of the object of k.
func (o *objects) key(k records.Key) string {
	switch k.Kind {
	case records.Run:
		return o.envRuns(k.Client, k.Env) + segment(k.Stack) + "/" + fmt.Sprintf("%0*d.json", runDigits, k.Number)
	case records.Plan:
		return o.planDir(k) + recordName
	case records.PlanFile:
		return o.planDir(k) + k.File
	case records.Artifact:
		return o.stackKept(k.Client, k.Env, k.Stack) + segment(k.File) + "/" + fmt.Sprintf("%0*d", runDigits, k.Number)
	default:
		return o.prefix + claimsName
	}
}

// listPrefix is the prefix of the objects a listing of prefix returns.
func (o *objects) listPrefix(prefix records.Key) (string, error) {
	switch {
	case prefix.Kind == records.Run && prefix.Stack == "":
		return o.envRuns(prefix.Client, prefix.Env), nil
	case prefix.Kind == records.Run:
		return o.envRuns(prefix.Client, prefix.Env) + segment(prefix.Stack) + "/", nil
	case prefix.Kind == records.Plan:
		return o.stackHeld(prefix.Client, prefix.Env, prefix.Stack), nil
	case prefix.Kind == records.PlanFile:
		return o.planDir(prefix), nil
	case prefix.Kind == records.Artifact:
		return o.stackKept(prefix.Client, prefix.Env, prefix.Stack), nil
	}
	return "", fmt.Errorf("list s3://%s/%s: records of kind %d are not listed", o.bucket, o.prefix, prefix.Kind)
}

// parseKey reads the key of the object named name under the prefix of a
// listing of prefix; false for an object that is none of the listing's:
// one of another kind, or of another writer.
func parseKey(prefix records.Key, name string) (records.Key, bool) {
	k := prefix
	switch prefix.Kind {
	case records.Run:
		if prefix.Stack == "" {
			stack, rest, ok := strings.Cut(name, "/")
			if !ok {
				return k, false
			}
			// A level strata did not escape is some other writer's.
			var err error
			if k.Stack, err = unsegment(stack); err != nil || segment(k.Stack) != stack {
				return k, false
			}
			name = rest
		}
		n, ok := runNumber(name)
		k.Number = n
		return k, ok
	case records.Plan:
		id, ok := strings.CutSuffix(name, "/"+recordName)
		k.Plan = id
		return k, ok && !strings.Contains(id, "/")
	case records.PlanFile:
		k.File = name
		return k, name != recordName && !strings.Contains(name, "/")
	case records.Artifact:
		hex, part, ok := strings.Cut(name, "/")
		n, err := strconv.Atoi(part)
		k.File, k.Number = hex, n
		digits := strings.Trim(part, "0123456789") == ""
		return k, ok && digits && err == nil && len(part) == runDigits && segment(hex) == hex
	}
	return k, false
}

// runNumber is the number of a run's object name, without its levels;
// false for an object that is not a run.
func runNumber(name string) (int, bool) {
	digits, ok := strings.CutSuffix(name, ".json")
	if !ok || len(digits) != runDigits || strings.Contains(name, "/") {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n > 0
}
