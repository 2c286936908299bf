package kuberecords

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/strata-iac/strata/orchestrator/records"
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
	annDigest = "strata.dev/artifact-sha256"

	managedBy = "strata"

	recordRun    = "run"
	recordPlan   = "held-plan"
	recordPart   = "held-plan-part"
	recordClaims = "claims"
	recordKept   = "kept-artifact"

	// claimsName is the ConfigMap of the claims on identities and state
	// keys.
	claimsName = "strata-claims"

	// Data keys: a run's JSON, the claims' JSON (key → owner), a part's
	// bytes. A held plan's Secret keeps its record's fields as
	// held.json, approval.json and payload.json (toSecret).
	runKey    = "run.json"
	claimsKey = "claims.json"
	partKey   = "part"

	// partBytes bounds a part of a held plan's files, well under the API
	// server's 1 MiB per object.
	partBytes = 768 << 10
)

// MaxPlanBytes is the most a held plan's files take, gzipped, in the
// cluster: beyond it Hold fails with ErrPlanTooLarge and the plan is not
// held.
const MaxPlanBytes = partBytes * records.MaxParts

// ErrPlanTooLarge means a plan's files, gzipped, are more than the
// cluster records keep (MaxPlanBytes).
var ErrPlanTooLarge = records.ErrPlanTooLarge

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

// artifactName is the Secret of part n (0: its record) of a stack's kept
// artifact whose sha256 is hex.
func artifactName(client, env, stack, hex string, n int) string {
	return "strata-artifact-" + stackHash(client, env, stack) + "-" + hash(hex) + "-" + strconv.Itoa(n)
}

// objectName is the name of k's object; a part of a held plan is
// <plan>-part-<i>.
func objectName(k records.Key) string {
	switch k.Kind {
	case records.Run:
		return runName(k.Client, k.Env, k.Stack, k.Number)
	case records.Plan:
		return planName(k.Client, k.Env, k.Stack, k.Plan)
	case records.PlanFile:
		return planName(k.Client, k.Env, k.Stack, k.Plan) + "-" + k.File
	case records.Artifact:
		return artifactName(k.Client, k.Env, k.Stack, k.File, k.Number)
	}
	return claimsName
}

// meta is the name, labels and annotations of k's object: a run keeps
// its writer; a held plan and its parts their plan id where it is a valid
// label value, and the parts the hash of the plan's name, which selects
// them.
func (o *objects) meta(k records.Key) metav1.ObjectMeta {
	m := metav1.ObjectMeta{Name: objectName(k), Namespace: o.namespace}
	if k.Kind == records.Claims {
		m.Labels = map[string]string{labelManagedBy: managedBy, labelRecord: recordClaims}
		return m
	}
	m.Annotations = annotations(k.Client, k.Env, k.Stack)
	switch k.Kind {
	case records.Run:
		m.Labels = labels(recordRun, k.Client, k.Env, k.Stack)
		m.Labels[labelRun] = strconv.Itoa(k.Number)
		if o.writer != "" {
			m.Annotations[annWriter] = o.writer
		}
		return m
	case records.Artifact:
		m.Labels = labels(recordKept, k.Client, k.Env, k.Stack)
		m.Annotations[annDigest] = k.File
		return m
	case records.Plan:
		m.Labels = labels(recordPlan, k.Client, k.Env, k.Stack)
	case records.PlanFile:
		m.Labels = labels(recordPart, k.Client, k.Env, k.Stack)
		m.Labels[labelPart] = hash(planName(k.Client, k.Env, k.Stack, k.Plan))
	}
	if len(validation.IsValidLabelValue(k.Plan)) == 0 {
		m.Labels[labelPlan] = k.Plan
	}
	return m
}

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
