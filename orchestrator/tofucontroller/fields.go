package tofucontroller

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"

	"github.com/strata-iac/strata/internal/suggest"
)

// A fieldRule decides one field of a Terraform object's spec: it returns
// why strata refuses the value, or "" when strata honours it (perhaps with
// a difference docs/terraform-fields.md states).
type fieldRule func(v any) string

// honoured accepts any value.
func honoured(any) string { return "" }

// isZero reports whether a decoded JSON value is its type's zero value.
func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case float64:
		return x == 0
	case int64:
		return x == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		for _, e := range x {
			if !isZero(e) {
				return false
			}
		}
		return true
	}
	return false
}

// subFields applies rules to the fields of a mapping; a field with no rule
// is refused as unknown.
func subFields(field string, rules map[string]fieldRule) fieldRule {
	return func(v any) string {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			rule, ok := rules[k]
			if !ok {
				return fmt.Sprintf("%s.%s is not a field of the Tofu Controller's Terraform", field, k)
			}
			if why := rule(m[k]); why != "" {
				return why
			}
		}
		return ""
	}
}

// terraformFields decides every field of the Tofu Controller's
// TerraformSpec (infra.contrib.fluxcd.io/v1alpha2). docs/terraform-fields.md has one row
// per field; a field that is not here is not a Tofu Controller field.
var terraformFields = map[string]fieldRule{
	"approvePlan": honoured,
	"destroy":     honoured,
	"backendConfig": subFields("spec.backendConfig", map[string]fieldRule{
		"customConfiguration": honoured,
		// disable: the module's own backend or cloud block keeps the
		// state; one that declares neither fails the run (prepare).
		"disable": honoured,
		// The Tofu Controller's kubernetes backend (kubernetesBackend).
		"secretSuffix":    honoured,
		"inClusterConfig": honoured,
		"configPath":      honoured,
		"labels":          honoured,
	}),
	// backendConfigsFrom: each entry's keys go to init (backendConfigs);
	// one that reads nothing is refused where the stack is built.
	"backendConfigsFrom": honoured,
	// cloud: the stack's state is the HCP Terraform workspace it names
	// (cloud).
	"cloud": honoured,
	"workspace": func(v any) string {
		// tofu's own rule for a workspace name.
		if name, _ := v.(string); url.PathEscape(name) != name {
			return fmt.Sprintf("spec.workspace is %q: a tofu workspace name has only URL-safe characters and no path separators", name)
		}
		return ""
	},
	// vars: value and valueFrom (secretKeyRef, configMapKeyRef) are
	// honoured; a valueFrom that reads nothing is refused where the
	// stack is built.
	"vars":                  honoured,
	"varsFrom":              honoured,
	"values":                honoured,
	"fileMappings":          honoured,
	"interval":              honoured,
	"retryInterval":         honoured,
	"path":                  honoured,
	"sourceRef":             honoured,
	"suspend":               honoured,
	"force":                 honoured,
	"readInputsFromSecrets": honoured,
	"writeOutputsToSecret": subFields("spec.writeOutputsToSecret", map[string]fieldRule{
		"name":        honoured,
		"labels":      honoured,
		"annotations": honoured,
		// outputs with old:new renames; a bad pattern is refused where
		// the stack is built.
		"outputs": honoured,
	}),
	"disableDriftDetection": honoured,
	// cliConfigSecretRef: the Secret is an input (cliConfig), merged
	// with strata's own CLI configuration when the stack runs.
	"cliConfigSecretRef": honoured,
	// healthChecks run after an apply (runner); what cannot run is
	// refused where the stack is built.
	"healthChecks":                        honoured,
	"destroyResourcesOnDeletion":          honoured,
	"serviceAccountName":                  honoured,
	"alwaysCleanupRunnerPod":              honoured,
	"runnerTerminationGracePeriodSeconds": honoured,
	"refreshBeforeApply":                  honoured,
	"runnerPodTemplate": subFields("spec.runnerPodTemplate", map[string]fieldRule{
		"metadata": honoured,
		"spec": subFields("spec.runnerPodTemplate.spec", map[string]fieldRule{
			"image": honoured, "imagePullPolicy": honoured, "nodeSelector": honoured, "affinity": honoured,
			"tolerations": honoured, "priorityClassName": honoured, "securityContext": honoured, "resources": honoured,
			// env and envFrom are tofu's environment (runnerEnv); what
			// reads nothing is refused where the stack is built.
			"env": honoured, "envFrom": honoured,
			// volumes, volumeMounts, initContainers and hostAliases go on
			// the runner Job's pod; a repository's run writes Secret and
			// ConfigMap volumes itself, and warns of the rest (volumes).
			"volumes": honoured, "volumeMounts": honoured, "initContainers": honoured, "hostAliases": honoured,
		}),
	}),
	"enableInventory": honoured,
	"tfstate": subFields("spec.tfstate", map[string]fieldRule{
		// no, auto and yes (with lockIdentifier) are honoured; any other
		// value is refused where the stack is built (checkForceUnlock).
		"forceUnlock":    honoured,
		"lockIdentifier": honoured,
		// lockTimeout: how long the plan waits for a held lock; a bad
		// duration is refused where the stack is built.
		"lockTimeout": honoured,
	}),
	"targets": honoured,
	"parallelism": func(v any) string {
		if n, ok := wholeNumber(v); (ok && n >= 0) || v == nil {
			return ""
		}
		return fmt.Sprintf("spec.parallelism is %v: it must be a whole number, 0 (tofu's default) or more", v)
	},
	"storeReadablePlan": honoured,
	// webhooks judge a plan with changes (runner); what cannot run is
	// refused where the stack is built.
	"webhooks":  honoured,
	"dependsOn": honoured,
	// enterprise is a placeholder the Tofu Controller reads nothing of;
	// accepted with a note (see noteTerraform).
	"enterprise": honoured,
	"planOnly":   honoured,
	// breakTheGlass is accepted with a note (see noteTerraform).
	"breakTheGlass": honoured,
	// The fields of the Tofu Controller's newest releases.
	// tfVarsFiles: each is a -var-file of the plan, relative to the
	// source's root; one missing fails the plan (the runner's prepare).
	"tfVarsFiles": honoured,
	"retryStrategy": func(v any) string {
		switch v {
		case nil, "", "StaticInterval":
			return ""
		case "ExponentialBackoff":
			// The wait doubles with each failure in a row (runner).
			return ""
		}
		return fmt.Sprintf("spec.retryStrategy is %v: the Tofu Controller knows StaticInterval and ExponentialBackoff", v)
	},
	// maxRetryInterval bounds ExponentialBackoff.
	"maxRetryInterval": honoured,
	// upgradeOnInit: strata's init keeps the providers of the stack's
	// lock file, from the shared cache and the mirror (a note).
	"upgradeOnInit": honoured,
	// plan.lock: false plans without the state lock (-lock=false), as
	// the Tofu Controller does; the apply still takes it.
	"plan": subFields("spec.plan", map[string]fieldRule{"lock": honoured}),
	// branchPlanner configures the Tofu Controller's branch planner, a
	// program of its own; accepted with a note (see noteTerraform).
	"branchPlanner": subFields("spec.branchPlanner", map[string]fieldRule{"enablePathScope": honoured}),
	// remediation.retries: strata retries a failed stack at every
	// reconcile, without a bound (a note).
	"remediation": subFields("spec.remediation", map[string]fieldRule{"retries": honoured}),
}

// wholeNumber returns a decoded number as an integer, when it is one.
func wholeNumber(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case uint64:
		return int64(n), n <= math.MaxInt64
	case float64:
		return int64(n), n == math.Trunc(n)
	}
	return 0, false
}

// checkFields decides every field of the Terraform object's spec:
// a field strata does not honour is a problem, never silently ignored; a
// field or label accepted with no effect is a note.
func (b *builder) checkFields() {
	b.noteTerraform()
	tf := b.tf
	spec, _ := tf.Raw["spec"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		rule, ok := terraformFields[k]
		if !ok {
			fix := "remove it"
			if c, d := suggest.Closest(k, slices.Sorted(maps.Keys(terraformFields))); d <= 3 {
				fix = fmt.Sprintf("write spec.%s", c)
			}
			b.problem(fmt.Sprintf("spec.%s is not a field of the Tofu Controller's Terraform (%s/v1alpha2)", k, Group),
				fix+" in "+tf.File)
			continue
		}
		if why := rule(spec[k]); why != "" {
			b.problem(why,
				fmt.Sprintf("remove the field from %s, or see the table of Terraform fields in strata's docs/terraform-fields.md", tf.File))
		}
	}
}
