package s3records

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// The objects under the prefix:
//
//	runs/<client>/<env>/<stack>/<number, 10 digits>.json
//	held/<client>/<env>/<stack>/<plan id>/record.json
//	held/<client>/<env>/<stack>/<plan id>/<plan file, plan JSON, summary>
//	claims.json
//
// Each name is path-escaped (segment), so that a "/" in a name never
// makes another level and "." or ".." never reads as one.
const (
	runsDir    = "runs/"
	heldDir    = "held/"
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
func (s *Store) envRuns(client, env string) string {
	return s.prefix + runsDir + segment(client) + "/" + segment(env) + "/"
}

// stackRuns is the prefix of a stack's runs.
func (s *Store) stackRuns(client, env, stack string) string {
	return s.envRuns(client, env) + segment(stack) + "/"
}

// runKey is the object of run n of a stack.
func (s *Store) runKey(client, env, stack string, n int) string {
	return s.stackRuns(client, env, stack) + fmt.Sprintf("%0*d.json", runDigits, n)
}

// runNumber is the number of the run object key, false for an object that
// is not a run.
func runNumber(key string) (int, bool) {
	name := key[strings.LastIndex(key, "/")+1:]
	digits, ok := strings.CutSuffix(name, ".json")
	if !ok || len(digits) != runDigits {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n > 0
}

// stackHeld is the prefix of a stack's held plans.
func (s *Store) stackHeld(client, env, stack string) string {
	return s.prefix + heldDir + segment(client) + "/" + segment(env) + "/" + segment(stack) + "/"
}

// planDir is the prefix of a held plan's objects; its id is checked
// (approval.ValidID) before.
func (s *Store) planDir(client, env, stack, id string) string {
	return s.stackHeld(client, env, stack) + id + "/"
}

// claimsKey is the object of the claims on identities and state keys.
func (s *Store) claimsKey() string { return s.prefix + claimsName }
