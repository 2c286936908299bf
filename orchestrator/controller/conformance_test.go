package controller_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/tofu-controller-conformance.md from the conformance table")

// verdict is how strata controller stands against one of the Tofu
// Controller's behaviour specs.
type verdict string

const (
	// same: TestConformanceInCluster runs the spec and strata does what
	// the Tofu Controller does.
	same verdict = "same"
	// deliberate: TestConformanceInCluster runs the spec; strata differs
	// on purpose, as the note says, and is one setting away from the Tofu
	// Controller.
	deliberate verdict = "deliberate difference"
	// partial: TestConformanceInCluster runs the spec and asserts all of
	// it but what the note names, which strata does not do yet.
	partial verdict = "partial"
	// open: not run yet; the note says what strata lacks or what the
	// test needs.
	open verdict = "not yet"
	// internal: the spec tests a part of the Tofu Controller that strata
	// has no counterpart of.
	internal verdict = "internal"
)

// conformanceSpec is one spec file of the Tofu Controller,
// controllers/<Name>_test.go of github.com/flux-iac/tofu-controller.
type conformanceSpec struct {
	Name    string
	Verdict verdict
	Note    string
}

// run reports whether TestConformanceInCluster runs the spec.
func (s conformanceSpec) run() bool {
	return s.Verdict == same || s.Verdict == deliberate || s.Verdict == partial
}

const (
	planIDs = "plan ids are strata's (`plan-<keyed hash of the changes>`): approve the id `status.plan.pending` shows"
	issue42 = "a field strata does not run yet (issue 42)"
)

// conformance is every spec of the Tofu Controller at v0.16.5, in its
// order.
var conformance = []conformanceSpec{
	{"tc000010_no_outputs", deliberate, planIDs},
	{"tc000011_bad_tar_gz_no_outputs", same, "the GitRepository is suspended and its status written by the test, which serves the bad artifact; Ready's message is strata's untar error, without the Tofu Controller's gRPC prefix"},
	{"tc000011_workspace_no_outputs", deliberate, planIDs},
	{"tc000012_src_bucket_no_outputs", deliberate, planIDs + "; the bucket is versitygw's"},
	{"tc000012_src_ocirepository_no_outputs", deliberate, planIDs},
	{"tc000013_source_not_found", same, "disabled in the Tofu Controller (its message is stale); its current behaviour, ArtifactFailed, is run. strata's message says what is missing and how to fix it"},
	{"tc000014_artifact_not_found", same, "disabled in the Tofu Controller; its current behaviour, ArtifactFailed, is run"},
	{"tc000015_cliconfigsecret_cross_ns_denied", same, ""},
	{"tc000015_depends_on_cross_ns_denied", same, ""},
	{"tc000015_source_cross_ns_denied", same, ""},
	{"tc000016_default_observed_generation", same, ""},
	{"tc000016_finilize_status", same, ""},
	{"tc000020_with_backend_no_outputs", same, ""},
	{"tc000020_with_workspace_no_outputs", same, ""},
	{"tc000030_plan_only_no_outputs", deliberate, planIDs},
	{"tc000031_plan_only_with_showplan_as_cm_no_outputs", deliberate, planIDs},
	{"tc000040_controlled_outputs", same, ""},
	{"tc000041_all_outputs", same, ""},
	{"tc000042_output_name_contains_dot", same, ""},
	{"tc000043_controlled_outputs_should_be_reconciled", same, ""},
	{"tc000044_plan_only_mode", same, ""},
	{"tc000050_plan_and_manual_approve_no_outputs", deliberate, planIDs},
	{"tc000051_plan_and_manual_approve_and_replan_no_outputs", deliberate, planIDs},
	{"tc000052_plan_and_manual_approve_with_files", deliberate, "its archive_file is strata_file of strata's test provider, installed from strata's provider mirror (no public registry here), and its ConfigMap a terraform_data resource; " + planIDs},
	{"tc000053_pending_plan_should_replan_on_source_change", deliberate, planIDs},
	{"tc000054_pending_plan_should_replan_on_spec_change", deliberate, planIDs + ": the same plan planned again keeps its id, as the Tofu Controller's does"},
	{"tc000060_vars_and_controlled_outputs", same, ""},
	{"tc000061_vars_hcl_input", same, ""},
	{"tc000062_vars_hcl", same, ""},
	{"tc000063_values_hcl", same, ""},
	{"tc000064_values_template_hcl", same, ""},
	{"tc000070_varsfrom_secret_and_controlled_outputs", same, ""},
	{"tc000071_varsfrom_secret_with_varkeys_and_controlled_outputs", same, ""},
	{"tc000072_varsfrom_optional_secret_controlled_outputs", same, "Ready's message is strata's: it names the Secret, the field that reads it and the fix, where the Tofu Controller's is its runner's gRPC error"},
	{"tc000073_varsfrom_accepts_many_secrets_outputs", same, ""},
	{"tc000074_varsfrom_accepts_many_secrets_with_last_supplied_key_precedence", internal, "calls the Tofu Controller's runner (GenerateVarsForTF); the precedence it checks is run by tc000090 and tc000081"},
	{"tc000075_varsfrom_secret_with_varkeys_rename_and_controlled_outputs", same, ""},
	{"tc000080_varsfrom_configmap_and_controlled_outputs", same, ""},
	{"tc000081_varsfrom_accepts_many_configmap_controlled_outputs", same, ""},
	{"tc000082_varsfrom_accepts_many_configmaps_with_last_supplied_key_precedence", internal, "calls the Tofu Controller's runner (GenerateVarsForTF); the precedence it checks is run by tc000081"},
	{"tc000090_varsfrom_override_and_controlled_outputs", same, ""},
	{"tc000100_applied_should_tx_to_plan_when_source_changed", deliberate, planIDs},
	{"tc000110_auto_applied_should_tx_to_plan_then_apply_when_source_changed", deliberate, planIDs},
	{"tc000111_with_backend_s3_no_outputs", same, "S3 and DynamoDB are moto's, where the spec runs localstack"},
	{"tc000120_delete", same, ""},
	{"tc000121_destroy_on_delete", deliberate, "strata's default policy holds the destroy even under `approvePlan: auto`; `--no-default-policy` gives the Tofu Controller's behaviour, and both are run"},
	{"tc000130_destroy_no_outputs", deliberate, "strata's default policy holds the destroy of `spec.destroy` even under `approvePlan: auto`; `--no-default-policy` gives the Tofu Controller's behaviour, and both are run; " + planIDs},
	{"tc000131_destroy_no_changes", same, "its module's ConfigMap is a terraform_data resource here, removed from the state"},
	{"tc000140_auto_applied_should_tx_to_plan_then_apply_when_drift_detected", deliberate, planIDs + "; its module's ConfigMap is a terraform_data resource here, and the drift a change of its state"},
	{"tc000150_manual_apply_should_report_and_loop_when_drift_detected", deliberate, "Ready's message is the drift plan as tofu prints it, as the Tofu Controller's, followed by the id to approve to undo it; " + planIDs},
	{"tc000160_auto_applied_should_tx_to_plan_when_unrelated_source_changed", deliberate, "a plan without changes is saved as the Tofu Controller saves every plan, under strata's id of a plan that changes nothing (the same for every such plan); " + planIDs},
	{"tc000170_if_apply_error_we_should_delete_the_plan_and_start_over", deliberate, "its module's existing ConfigMap is a file that fails a local-exec provisioner here, which taints the resource; its replace is a destroy strata's default policy holds, so it runs with `--no-default-policy`"},
	{"tc000180_should_detect_drift", internal, "a unit test of the Tofu Controller's shouldDetectDrift"},
	{"tc000190_unsupported_source_should_error", internal, "a unit test of the Tofu Controller's getSource; strata refuses such a sourceRef (TestLoadNamespaceProblems)"},
	{"tc000191_missing_source_should_error", internal, "a unit test of the Tofu Controller's getSource; the behaviour, ArtifactFailed, is run by tc000013"},
	{"tc000200_disable_drift_detection", internal, "a unit test of the Tofu Controller's shouldDetectDrift"},
	{"tc000201_auto_approve_with_disabled_drift_detection", same, ""},
	{"tc000210_plan_encode_decode", internal, "a unit test of the Tofu Controller's plan encoding"},
	{"tc000220_support_config_file_via_secret", same, "the module's `cloud {}` block runs against a fake of the HCP Terraform API of the test's own, where the spec needs app.terraform.io and a token; its last step expects `Applied successfully` for the destroy, where the Tofu Controller's code says `Destroy applied successfully`, as strata does (see tc000130)"},
	{"tc000230_drift_detection_only_mode", same, "its module's ConfigMap is a terraform_data resource here, and the drift a change of its state"},
	{"tc000240_health_check", internal, "a unit test of the Tofu Controller's health check helpers; `healthChecks`: " + issue42},
	{"tc000241_auto_approve_with_health_checks", same, "the checks reach a server of the test's own, where the spec dials google.com"},
	{"tc000242_bad_health_checks", same, "both objects are checked, where the spec's second check reads the first object again"},
	{"tc000243_remediation_retry", same, "its artifact that cannot be used is a module whose plan always fails here"},
	{"tc000260_runner_pod", same, "runners are Jobs running `strata runner`: the runner Job's pod, which runs, carries the object's labels, annotations, image, service account, host aliases and env with POD_NAME, POD_NAMESPACE and the controller's proxy settings, and the Job is owned by the object as the Tofu Controller's pod is; the env cases read the environment with strata_env of strata's test provider, from its provider mirror, where the spec uses the external data source and the vault provider of the public registry"},
	{"tc000280_inventory", same, "its module's ConfigMap is a terraform_data resource here"},
	{"tc000281_manifest_no_outputs", same, "its module's ConfigMap is a terraform_data resource here, with the state strata keeps (its kubernetes backend fields are issue 42)"},
	{"tc000290_force_unlock", same, "its module's ConfigMap is a terraform_data resource here; strata writes the status once per run, so the run that released the lock shows StateLocked False ForceUnlock until the next run, where the Tofu Controller's same reconcile clears it after its plan"},
	{"tc000300_targets", deliberate, "strata's default policy holds the destroy even under `approvePlan: auto`; it runs with `--no-default-policy`, the Tofu Controller's behaviour"},
	{"tc000310_node_selector_affinity_tolerations", same, "the Tofu Controller checks the pod spec it would make; strata runs the runner Job, with values the test node satisfies, and checks its pod"},
	{"tc000311_init_container", same, "the init container runs strata's image (the test node pulls no other); the runner Job's pod carries it and the run writes its outputs"},
	{"tc000320_vol_and_vol_mounts", same, "strata's runner pod has its own volumes, `request` and `work`, where the Tofu Controller's has `temp` and `home`; the object's follow them, in order, and the runner Job's pod, which runs, is checked"},
	{"tc000330_file_mapping_no_outputs", same, ""},
	{"tc000340_webhooks_for_post_planning", same, "its payload tests (SpecAndPlan, SpecOnly, PlanOnly) are checked at the webhook the run posts to; the webhook is plain http, where the Tofu Controller asks for client certificates unless DISABLE_WEBHOOK_TLS_VERIFY=1: strata presents them when /etc/certs/<host>/ has them"},
	{"tc000350_depends_on", deliberate, planIDs},
	{"tc000360_tfvars_files", same, ""},
	{"tc000361_runner_quota_exhausted", internal, "a unit test of the Tofu Controller's quota error helper"},
	{"tc000362_plan_lock_disabled", deliberate, planIDs},
	{"tc000362_state_secret_label", internal, "a unit test of the Tofu Controller's backend label helper; `backendConfig.labels`: " + issue42},
	{"tc009990_mtls_generate_creds", internal, "the Tofu Controller's gRPC runner's mTLS; strata's runners are Jobs, with no server"},
}

// conformanceDoc is docs/tofu-controller-conformance.md, generated from
// the table.
const conformanceDoc = "../../docs/tofu-controller-conformance.md"

// TestConformanceTable: the conformance page of the docs is the table, as
// TestConformanceInCluster holds it to; go test ./orchestrator/controller/
// -run TestConformanceTable -update writes it. Every spec is listed once,
// and the ones the table says run have a test.
func TestConformanceTable(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range conformance {
		if seen[s.Name] {
			t.Errorf("spec %s is listed twice", s.Name)
		}
		seen[s.Name] = true
		if s.Verdict != same && s.Note == "" {
			t.Errorf("spec %s (%s) has no note: say what differs", s.Name, s.Verdict)
		}
	}
	if len(conformance) != 80 {
		t.Errorf("conformance lists %d specs, want the Tofu Controller's 80", len(conformance))
	}
	testkit.Generated(t, conformanceDoc, conformanceMarkdown(), *updateDocs, "go test ./orchestrator/controller/ -run TestConformanceTable -update")
}

// conformanceMarkdown renders the table as the docs page.
func conformanceMarkdown() string {
	var b strings.Builder
	count := map[verdict]int{}
	for _, s := range conformance {
		count[s.Verdict]++
	}
	b.WriteString("# Tofu Controller conformance\n\n")
	b.WriteString("<!-- Generated by TestConformanceTable (orchestrator/controller/conformance_test.go); do not edit. -->\n\n")
	b.WriteString("The Tofu Controller's behaviour specs (`controllers/tc*_test.go` of\n")
	b.WriteString("github.com/flux-iac/tofu-controller, v0.16.5), each against `strata\n")
	b.WriteString("controller`. `make test-k8s` runs every spec marked same, deliberate\n")
	b.WriteString("difference or partial as `TestConformanceInCluster/<spec>`, on a real\n")
	b.WriteString("cluster with a real source-controller, and asserts the Tofu Controller's\n")
	b.WriteString("values: its conditions, reasons, messages where users match on them,\n")
	b.WriteString("Secrets and status fields. A partial spec asserts all but what its note\n")
	b.WriteString("names.\n\n")
	fmt.Fprintf(&b, "Of %d specs: %d same, %d deliberate differences, %d partial, %d not yet, %d internal to the Tofu Controller.\n\n",
		len(conformance), count[same], count[deliberate], count[partial], count[open], count[internal])
	b.WriteString("| Spec | Verdict | Note |\n|---|---|---|\n")
	for _, s := range conformance {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", s.Name, s.Verdict, s.Note)
	}
	return b.String()
}
