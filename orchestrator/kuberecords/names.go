package kuberecords

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Labels and annotations of the records.
const (
	labelManagedBy = "app.kubernetes.io/managed-by"
	labelRecord    = "strata.dev/record"
	labelEnvHash   = "strata.dev/env-hash"
	labelStackHash = "strata.dev/stack-hash"
	labelClient    = "strata.dev/client"
	labelEnv       = "strata.dev/environment"
	labelStack     = "strata.dev/stack"
	labelRun       = "strata.dev/run"
	labelPlan      = "strata.dev/plan-id"
	labelPart      = "strata.dev/part-of"

	annClient = "strata.dev/client"
	annEnv    = "strata.dev/environment"
	annStack  = "strata.dev/stack"
	annWriter = "strata.dev/writer"

	managedBy = "strata"

	recordRun    = "run"
	recordPlan   = "held-plan"
	recordPart   = "held-plan-part"
	recordClaims = "claims"

	// claimsName is the ConfigMap of the claims on identities and state
	// keys.
	claimsName = "strata-claims"
)

// hash is a short, label-safe digest of the parts, each ended by a NUL so
// that no two lists of names share one.
func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// envHash and stackHash select an environment's and a stack's records.
func envHash(client, env string) string          { return hash(client, env) }
func stackHash(client, env, stack string) string { return hash(client, env, stack) }

// runName is the ConfigMap of run n of a stack.
func runName(client, env, stack string, n int) string {
	return "strata-run-" + stackHash(client, env, stack) + "-" + strconv.Itoa(n)
}

// planName is the Secret of a held plan; "plan-" and hex digits make its
// id (approval.ValidID).
func planName(client, env, stack, id string) string {
	return "strata-" + stackHash(client, env, stack) + "-" + id
}

// partName is part i of a held plan's payload.
func partName(plan string, i int) string { return partPrefix(plan) + strconv.Itoa(i) }

// partPrefix starts the name of every part of a held plan.
func partPrefix(plan string) string { return plan + "-part-" }

// labels are a record's labels: what selects it (hashes, which any name
// gives), and the names themselves where they are valid label values, for
// people using kubectl.
func labels(record, client, env, stack string) map[string]string {
	l := map[string]string{
		labelManagedBy: managedBy,
		labelRecord:    record,
		labelEnvHash:   envHash(client, env),
		labelStackHash: stackHash(client, env, stack),
	}
	for k, v := range map[string]string{labelClient: client, labelEnv: env, labelStack: stack} {
		if len(validation.IsValidLabelValue(v)) == 0 {
			l[k] = v
		}
	}
	return l
}

// annotations keep a record's names exactly.
func annotations(client, env, stack string) map[string]string {
	return map[string]string{annClient: client, annEnv: env, annStack: stack}
}
