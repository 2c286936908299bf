//go:build k8s

package controller_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/internal/tfetest"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/registry-mirror/mirrortest/providermirror"
)

// TestConformanceInCluster runs the Tofu Controller's behaviour specs
// (conformance, in conformance_test.go) against strata controller: each
// spec the table says runs is a subtest named after its file, on a
// namespace of its own with a real source-controller, and asserts the
// Tofu Controller's values. The modules are the specs' (testdata/conformance),
// each pushed as an OCIRepository; a GitRepository's branch/sha revision
// becomes the OCIRepository's tag@digest. The specs not run are skipped
// with their note.
func TestConformanceInCluster(t *testing.T) {
	for _, s := range conformance {
		t.Run(s.Name, func(t *testing.T) {
			run, ok := conformanceRuns[s.Name]
			switch {
			case !s.run() && ok:
				t.Fatalf("spec %s has a test, but the table says %s: mark it same, deliberate or partial", s.Name, s.Verdict)
			case !s.run():
				t.Skipf("%s: %s", s.Verdict, s.Note)
			case !ok:
				t.Fatalf("spec %s is marked %s and has no test", s.Name, s.Verdict)
			}
			run(t, newWorld(t))
		})
	}
}

// conformanceRuns are the specs' tests, by spec.
var conformanceRuns = map[string]func(*testing.T, *world){
	"tc000010_no_outputs":                                                    tc000010,
	"tc000011_workspace_no_outputs":                                          tc000011Workspace,
	"tc000012_src_bucket_no_outputs":                                         tc000012Bucket,
	"tc000012_src_ocirepository_no_outputs":                                  tc000012OCI,
	"tc000013_source_not_found":                                              tc000013,
	"tc000014_artifact_not_found":                                            tc000014,
	"tc000015_cliconfigsecret_cross_ns_denied":                               tc000015CLIConfig,
	"tc000015_depends_on_cross_ns_denied":                                    tc000015DependsOn,
	"tc000015_source_cross_ns_denied":                                        tc000015Source,
	"tc000016_default_observed_generation":                                   tc000016Default,
	"tc000016_finilize_status":                                               tc000016Finalize,
	"tc000020_with_backend_no_outputs":                                       tc000020Backend,
	"tc000020_with_workspace_no_outputs":                                     tc000020Workspace,
	"tc000030_plan_only_no_outputs":                                          tc000030,
	"tc000031_plan_only_with_showplan_as_cm_no_outputs":                      tc000031,
	"tc000040_controlled_outputs":                                            tc000040,
	"tc000041_all_outputs":                                                   tc000041,
	"tc000042_output_name_contains_dot":                                      tc000042,
	"tc000043_controlled_outputs_should_be_reconciled":                       tc000043,
	"tc000044_plan_only_mode":                                                tc000044,
	"tc000050_plan_and_manual_approve_no_outputs":                            tc000050,
	"tc000053_pending_plan_should_replan_on_source_change":                   tc000053,
	"tc000054_pending_plan_should_replan_on_spec_change":                     tc000054,
	"tc000060_vars_and_controlled_outputs":                                   tc000060,
	"tc000051_plan_and_manual_approve_and_replan_no_outputs":                 tc000051,
	"tc000061_vars_hcl_input":                                                tc000061,
	"tc000062_vars_hcl":                                                      tc000062,
	"tc000063_values_hcl":                                                    tc000063,
	"tc000064_values_template_hcl":                                           tc000064,
	"tc000070_varsfrom_secret_and_controlled_outputs":                        tc000070,
	"tc000071_varsfrom_secret_with_varkeys_and_controlled_outputs":           tc000071,
	"tc000072_varsfrom_optional_secret_controlled_outputs":                   tc000072,
	"tc000073_varsfrom_accepts_many_secrets_outputs":                         tc000073,
	"tc000075_varsfrom_secret_with_varkeys_rename_and_controlled_outputs":    tc000075,
	"tc000080_varsfrom_configmap_and_controlled_outputs":                     tc000080,
	"tc000081_varsfrom_accepts_many_configmap_controlled_outputs":            tc000081,
	"tc000090_varsfrom_override_and_controlled_outputs":                      tc000090,
	"tc000100_applied_should_tx_to_plan_when_source_changed":                 tc000100,
	"tc000110_auto_applied_should_tx_to_plan_then_apply_when_source_changed": tc000110,
	"tc000120_delete":                                                        tc000120,
	"tc000121_destroy_on_delete":                                             tc000121,
	"tc000130_destroy_no_outputs":                                            tc000130,
	"tc000131_destroy_no_changes":                                            tc000131,
	"tc000140_auto_applied_should_tx_to_plan_then_apply_when_drift_detected": tc000140,
	"tc000150_manual_apply_should_report_and_loop_when_drift_detected":       tc000150,
	"tc000160_auto_applied_should_tx_to_plan_when_unrelated_source_changed":  tc000160,
	"tc000170_if_apply_error_we_should_delete_the_plan_and_start_over":       tc000170,
	"tc000111_with_backend_s3_no_outputs":                                    tc000111,
	"tc000201_auto_approve_with_disabled_drift_detection":                    tc000201,
	"tc000220_support_config_file_via_secret":                                tc000220,
	"tc000241_auto_approve_with_health_checks":                               tc000241,
	"tc000242_bad_health_checks":                                             tc000242,
	"tc000230_drift_detection_only_mode":                                     tc000230,
	"tc000243_remediation_retry":                                             tc000243,
	"tc000280_inventory":                                                     tc000280,
	"tc000281_manifest_no_outputs":                                           tc000281,
	"tc000300_targets":                                                       tc000300,
	"tc000260_runner_pod":                                                    tc000260,
	"tc000310_node_selector_affinity_tolerations":                            tc000310,
	"tc000311_init_container":                                                tc000311,
	"tc000340_webhooks_for_post_planning":                                    tc000340,
	"tc000320_vol_and_vol_mounts":                                            tc000320,
	"tc000330_file_mapping_no_outputs":                                       tc000330,
	"tc000360_tfvars_files":                                                  tc000360,
	"tc000362_plan_lock_disabled":                                            tc000362,
	"tc000350_depends_on":                                                    tc000350,
	"tc000290_force_unlock":                                                  tc000290,
	"tc000011_bad_tar_gz_no_outputs":                                         tc000011BadTarGz,
	"tc000052_plan_and_manual_approve_with_files":                            tc000052,
}

// cond is a condition as the specs compare it.
type cond struct{ Type, Status, Reason, Message string }

func conditions(tf *v1alpha2.Terraform) []cond {
	var out []cond
	for _, c := range tf.Status.Conditions {
		out = append(out, cond{c.Type, string(c.Status), c.Reason, c.Message})
	}
	return out
}

// wantCondition checks one condition: its reason, and its message when
// msg is not "".
func wantCondition(t *testing.T, tf *v1alpha2.Terraform, typ, reason, msg string) {
	t.Helper()
	c := condition(tf, typ)
	if c.Reason != reason || (msg != "" && c.Message != msg) {
		t.Errorf("Terraform %s condition %s = %s %s: %q, want reason %s, message %q", tf.Name, typ, c.Status, c.Reason, c.Message, reason, msg)
	}
}

// wantReady checks that the object is Ready, whatever the reason.
func wantReady(t *testing.T, tf *v1alpha2.Terraform) {
	t.Helper()
	if c := condition(tf, v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue {
		t.Errorf("Terraform %s Ready = %s %s: %s, want True", tf.Name, c.Status, c.Reason, c.Message)
	}
}

// wantPlanSecret checks the plan Secret of Terraform tf, as the Tofu
// Controller keeps it: tfplan-default-<name>, the plan id in savedPlan,
// gzip encoding, the plan under tfplan, owned by the object.
func (w *world) wantPlanSecret(tf, id string) {
	w.t.Helper()
	s := w.getSecret("tfplan-default-" + tf)
	if s == nil {
		w.t.Errorf("plan Secret tfplan-default-%s: not found", tf)
		return
	}
	if s.Annotations["savedPlan"] != id || s.Annotations["encoding"] != "gzip" || len(s.Data["tfplan"]) == 0 {
		w.t.Errorf("plan Secret tfplan-default-%s: annotations %v, %d bytes of tfplan, want savedPlan %s, encoding gzip and the plan", tf, s.Annotations, len(s.Data["tfplan"]), id)
	}
	if obj := w.get(tf); obj == nil || len(s.OwnerReferences) == 0 || s.OwnerReferences[0].UID != obj.UID {
		w.t.Errorf("plan Secret tfplan-default-%s owners = %v, want Terraform %s", tf, s.OwnerReferences, tf)
	}
}

// wantAvailable checks status.availableOutputs and the Output condition
// of an object without writeOutputsToSecret.
func wantAvailable(t *testing.T, tf *v1alpha2.Terraform, outputs ...string) {
	t.Helper()
	if diff := cmp.Diff(outputs, tf.Status.AvailableOutputs); diff != "" {
		t.Errorf("Terraform %s status.availableOutputs mismatch (-want +got):\n%s", tf.Name, diff)
	}
	wantCondition(t, tf, v1alpha2.ConditionOutput, v1alpha2.ReasonOutputsAvailable, "Outputs available")
}

// module pushes a module of testdata/conformance as the OCIRepository
// name, at tag, and returns the Terraform object of that name that the
// specs start from: approvePlan auto, its path the module's root.
func (w *world) module(name, module, tag string) *v1alpha2.Terraform {
	w.t.Helper()
	w.push(name, "testdata/conformance/"+module, tag)
	return &v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: v1alpha2.ApprovePlanAuto, Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: name},
		},
	}
}

// secret creates a Secret of the world's namespace.
func (w *world) secret(name string, data map[string]string) {
	w.t.Helper()
	if _, err := w.c.Client.CoreV1().Secrets(w.ns).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name}, Type: corev1.SecretTypeOpaque, StringData: data,
	}, metav1.CreateOptions{}); err != nil {
		w.t.Fatal(err)
	}
}

// configMap creates a ConfigMap of the world's namespace.
func (w *world) configMap(name string, data map[string]string) {
	w.t.Helper()
	if _, err := w.c.Client.CoreV1().ConfigMaps(w.ns).Create(context.Background(), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data,
	}, metav1.CreateOptions{}); err != nil {
		w.t.Fatal(err)
	}
}

// getSecret reads a Secret of the world's namespace; nil when there is
// none.
func (w *world) getSecret(name string) *corev1.Secret {
	w.t.Helper()
	s, err := w.c.Client.CoreV1().Secrets(w.ns).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// wantOutputs checks the output Secret name of Terraform tf: exactly the
// data want, owned by the object. It returns the Secret.
func (w *world) wantOutputs(name, tf string, want map[string]string) *corev1.Secret {
	w.t.Helper()
	s := w.getSecret(name)
	if s == nil {
		w.t.Fatalf("output Secret %s of Terraform %s: not found", name, tf)
	}
	got := map[string]string{}
	for k, v := range s.Data {
		got[k] = string(v)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		w.t.Errorf("output Secret %s data mismatch (-want +got):\n%s", name, diff)
	}
	obj := w.get(tf)
	if len(s.OwnerReferences) == 0 || s.OwnerReferences[0].UID != obj.UID {
		w.t.Errorf("output Secret %s owners = %v, want Terraform %s (uid %s) first", name, s.OwnerReferences, tf, obj.UID)
	}
	return s
}

// wantNoStateSecret checks that an object without a backendConfig keeps
// no kubernetes state Secret, as the Tofu Controller's specs run it.
func (w *world) wantNoStateSecret(tf string) {
	w.t.Helper()
	if s := w.getSecret("tfstate-default-" + tf); s != nil {
		w.t.Errorf("Secret tfstate-default-%s exists, want none", tf)
	}
}

// tc000010: auto approve, no backend: planned then applied, with the
// Tofu Controller's four conditions, in its order, and the module's one
// output available.
func tc000010(t *testing.T, w *world) {
	w.apply(w.module("helloworld-no-outputs", "hello-world", "0.1.0"))
	w.reconcile()
	tf := w.get("helloworld-no-outputs")
	rev := tf.Status.LastAttemptedRevision
	if !strings.HasPrefix(rev, "0.1.0@sha256:") {
		t.Fatalf("lastAttemptedRevision = %q, want the OCIRepository's 0.1.0@sha256:…", rev)
	}
	want := []cond{
		{"Ready", "True", v1alpha2.ReasonApplySucceeded, "Applied successfully: " + rev},
		{"Apply", "True", v1alpha2.ReasonApplySucceeded, "Applied successfully"},
		{"Output", "True", v1alpha2.ReasonOutputsAvailable, "Outputs available"},
		{"Plan", "True", v1alpha2.ReasonPlannedWithChanges, "Plan generated"},
	}
	if diff := cmp.Diff(want, conditions(tf)); diff != "" {
		t.Errorf("conditions mismatch (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(tf.Status.Plan.LastApplied, "plan-") {
		t.Errorf("status.plan.lastApplied = %q, want the plan applied", tf.Status.Plan.LastApplied)
	}
	w.wantPlanSecret(tf.Name, tf.Status.Plan.LastApplied)
	wantAvailable(t, tf, "hello_world")
	w.wantNoStateSecret(tf.Name)
}

// tc000011Workspace: spec.workspace names the plan Secret
// (tfplan-<workspace>-<name>).
func tc000011Workspace(t *testing.T, w *world) {
	tf := w.module("helloworld-ws-no-outputs", "hello-world", "0.1.0")
	tf.Spec.Workspace = "custom"
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	s := w.getSecret("tfplan-custom-" + tf.Name)
	if s == nil || s.Annotations["savedPlan"] != got.Status.Plan.LastApplied || s.Annotations["encoding"] != "gzip" || len(s.Data["tfplan"]) == 0 {
		t.Errorf("plan Secret tfplan-custom-%s = %v, want the plan applied, %s", tf.Name, s, got.Status.Plan.LastApplied)
	}
	wantAvailable(t, got, "hello_world")
	if w.getSecret("tfstate-custom-"+tf.Name) != nil {
		t.Errorf("Secret tfstate-custom-%s exists, want none", tf.Name)
	}
}

// buckets is the resource of source-controller's Buckets.
var buckets = schema.GroupVersionResource{Group: "source.toolkit.fluxcd.io", Version: "v1", Resource: "buckets"}

// tc000012Bucket: a Bucket source (S3, here versitygw), its revision a
// digest of the bucket's objects.
func tc000012Bucket(t *testing.T, w *world) {
	ctx := context.Background()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "test-flux-tf-bucket")
	main, err := os.ReadFile("testdata/conformance/hello-world/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	awstest.PutObject(t, endpoint, "test-flux-tf-bucket", "terraform-hello-world-example/main.tf", string(main))
	w.secret("bucket-credentials", map[string]string{"accesskey": access, "secretkey": secret})
	bucket := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "Bucket",
		"metadata": map[string]any{"name": "test-tf-controller-src-bucket-no-output", "namespace": w.ns},
		"spec": map[string]any{
			"bucketName": "test-flux-tf-bucket", "provider": "generic", "interval": "1m", "insecure": true,
			"endpoint": strings.TrimPrefix(endpoint, "http://"), "region": "us-east-1",
			"secretRef": map[string]any{"name": "bucket-credentials"},
		},
	}}
	if _, err := w.dyn.Resource(buckets).Namespace(w.ns).Create(ctx, bucket, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "Bucket artifact", func() (bool, error) {
		got, err := w.dyn.Resource(buckets).Namespace(w.ns).Get(ctx, "test-tf-controller-src-bucket-no-output", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		rev, _, _ := unstructured.NestedString(got.Object, "status", "artifact", "revision")
		return rev != "", nil
	})
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "src-bucket-helloworld-no-outputs"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: v1alpha2.ApprovePlanAuto, Path: "./terraform-hello-world-example",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "Bucket", Name: "test-tf-controller-src-bucket-no-output"},
		},
	})
	w.reconcile()
	got := w.get("src-bucket-helloworld-no-outputs")
	wantCondition(t, got, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	w.wantPlanSecret(got.Name, got.Status.Plan.LastApplied)
	wantAvailable(t, got, "hello_world")
	w.wantNoStateSecret(got.Name)
}

// tc000012OCI: an OCIRepository source, its tag@digest revision.
func tc000012OCI(t *testing.T, w *world) {
	w.apply(w.module("src-ocirepository-helloworld-no-outputs", "hello-world", "v4.38.0-v1alpha11"))
	w.reconcile()
	tf := w.get("src-ocirepository-helloworld-no-outputs")
	wantCondition(t, tf, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	wantCondition(t, tf, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if !strings.HasPrefix(tf.Status.LastAppliedRevision, "v4.38.0-v1alpha11@sha256:") {
		t.Errorf("lastAppliedRevision = %q, want v4.38.0-v1alpha11@sha256:…", tf.Status.LastAppliedRevision)
	}
	w.wantPlanSecret(tf.Name, tf.Status.Plan.LastApplied)
	wantAvailable(t, tf, "hello_world")
	w.wantNoStateSecret(tf.Name)
}

// tc000013: a source that does not exist: Ready False ArtifactFailed,
// with a Warning Event, and nothing runs.
func tc000013(t *testing.T, w *world) {
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "tf-source-not-found"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "GitRepository", Name: "gr-source-not-found"},
		},
	})
	w.reconcile()
	tf := w.get("tf-source-not-found")
	c := condition(tf, v1alpha2.ConditionReady)
	if c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonArtifactFailed || !strings.Contains(c.Message, "GitRepository/gr-source-not-found") {
		t.Errorf("Ready = %s, want False %s naming GitRepository/gr-source-not-found", ready(tf), v1alpha2.ReasonArtifactFailed)
	}
	if evs := w.events(tf.Name, v1alpha2.ReasonArtifactFailed); len(evs) != 1 || evs[0].Type != corev1.EventTypeWarning {
		t.Errorf("%s Events = %v, want one Warning", v1alpha2.ReasonArtifactFailed, evs)
	}
	if n := w.executed.Load(); n != 0 {
		t.Errorf("runs executed = %d, want none", n)
	}
}

// tc000014: a source that exists but has no artifact: Ready False
// ArtifactFailed, and nothing runs.
func tc000014(t *testing.T, w *world) {
	repo := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "OCIRepository",
		"metadata": map[string]any{"name": "gr-artifact-not-found", "namespace": w.ns},
		"spec": map[string]any{
			"url": "oci://" + w.reg.Host + "/iac/nothing-here", "interval": "1m", "insecure": true,
			"ref": map[string]any{"tag": "0.1.0"},
		},
	}}
	if _, err := w.dyn.Resource(ociRepositories).Namespace(w.ns).Create(context.Background(), repo, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "tf-artifact-not-found"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "gr-artifact-not-found"},
		},
	})
	w.reconcile()
	got := w.get("tf-artifact-not-found")
	if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonArtifactFailed {
		t.Errorf("Ready = %s, want False %s", ready(got), v1alpha2.ReasonArtifactFailed)
	}
	if n := w.executed.Load(); n != 0 {
		t.Errorf("runs executed = %d, want none", n)
	}
}

// tc000015Source: a sourceRef into another namespace, refused.
func tc000015Source(t *testing.T, w *world) {
	other := w.c.Namespace(t, "flux-system")
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "tf-cross-ns"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "GitRepository", Name: "gr-source", Namespace: other},
		},
	})
	w.reconcile()
	wantCondition(t, w.get("tf-cross-ns"), v1alpha2.ConditionReady, v1alpha2.ReasonAccessDenied,
		"cannot access GitRepository/"+other+"/gr-source, cross-namespace references have been disabled")
}

// tc000015DependsOn: a dependsOn into another namespace, refused.
func tc000015DependsOn(t *testing.T, w *world) {
	tf := w.module("tf-cross-ns", "hello-world", "0.1.0")
	tf.Spec.DependsOn = []v1alpha2.NamespacedObjectReference{{Name: "gr-source", Namespace: "other-ns"}}
	w.apply(tf)
	w.reconcile()
	wantCondition(t, w.get("tf-cross-ns"), v1alpha2.ConditionReady, v1alpha2.ReasonAccessDenied,
		"cannot access other-ns/gr-source, cross-namespace references have been disabled")
}

// tc000015CLIConfig: a cliConfigSecretRef into another namespace,
// refused, and nothing runs.
func tc000015CLIConfig(t *testing.T, w *world) {
	tf := w.module("tf-cross-ns-cliconfigsecret", "hello-world", "0.1.0")
	tf.Spec.CliConfigSecretRef = &corev1.SecretReference{Name: "gr-source", Namespace: "other-ns"}
	w.apply(tf)
	w.reconcile()
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionReady, v1alpha2.ReasonAccessDenied,
		"cannot access secret other-ns/gr-source, cross-namespace references have been disabled")
	if n := w.executed.Load(); n != 0 {
		t.Errorf("runs executed = %d, want none", n)
	}
}

// tc000020Backend: backendConfig's kubernetes backend (secretSuffix,
// configPath): applied, its outputs available, its state the Secret
// tfstate-default-<suffix> of the object's namespace.
func tc000020Backend(t *testing.T, w *world) {
	tc000020(t, w, "helloworld-with-backend-no-outputs", "")
}

// tc000020Workspace: the same in workspace custom: the state Secret is
// tfstate-custom-<suffix>.
func tc000020Workspace(t *testing.T, w *world) {
	tc000020(t, w, "helloworld-with-workspace-no-outputs", "custom")
}

func tc000020(t *testing.T, w *world, name, workspace string) {
	tf := w.module(name, "hello-world", "0.1.0")
	tf.Spec.BackendConfig = &v1alpha2.BackendConfigSpec{SecretSuffix: name, ConfigPath: w.c.Kubeconfig, Labels: map[string]string{"app.example.com/team": "platform"}}
	tf.Spec.Workspace = workspace
	w.apply(tf)
	w.reconcile()
	got := w.get(name)
	if c := condition(got, v1alpha2.ConditionApply); c.Reason != v1alpha2.ReasonApplySucceeded {
		t.Errorf("Apply = %+v, want reason %s", c, v1alpha2.ReasonApplySucceeded)
	}
	if c := condition(got, v1alpha2.ConditionOutput); c.Reason != v1alpha2.ReasonOutputsAvailable {
		t.Errorf("Output = %+v, want reason %s", c, v1alpha2.ReasonOutputsAvailable)
	}
	if diff := cmp.Diff([]string{"hello_world"}, got.Status.AvailableOutputs); diff != "" {
		t.Errorf("status.availableOutputs mismatch (-want +got):\n%s", diff)
	}
	if workspace == "" {
		workspace = "default"
	}
	state := w.getSecret("tfstate-" + workspace + "-" + name)
	if state == nil {
		t.Fatalf("state Secret tfstate-%s-%s: not found", workspace, name)
	}
	if state.Labels["app.example.com/team"] != "platform" {
		t.Errorf("state Secret labels = %v, want backendConfig.labels on it", state.Labels)
	}
}

// tc000016Default: a new object's status.observedGeneration is -1, the
// CRD's default.
func tc000016Default(t *testing.T, w *world) {
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "tf-default-generation"},
		Spec: v1alpha2.TerraformSpec{
			Path: "./", SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "GitRepository", Name: "foo"},
		},
	})
	if g := w.get("tf-default-generation").Status.ObservedGeneration; g != -1 {
		t.Errorf("status.observedGeneration of a new object = %d, want -1", g)
	}
}

// tc000016Finalize: a reconcile writes observedGeneration, and
// lastHandledReconcileAt from the reconcile.fluxcd.io/requestedAt
// annotation, verbatim.
func tc000016Finalize(t *testing.T, w *world) {
	const at = "2026-12-06 08:00:00.123456789 +0000 UTC m=+1.234567890"
	tf := w.module("tf-finalize-status", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	tf.Annotations = map[string]string{v1alpha2.ReconcileRequestAnnotation: at}
	w.apply(tf)
	w.reconcile()
	got := w.get("tf-finalize-status")
	if got.Status.ObservedGeneration != 1 {
		t.Errorf("status.observedGeneration = %d, want 1", got.Status.ObservedGeneration)
	}
	if got.Status.LastHandledReconcileAt != at {
		t.Errorf("status.lastHandledReconcileAt = %q, want %q", got.Status.LastHandledReconcileAt, at)
	}
}

// pending checks that the object waits for approval of its plan, with the
// Tofu Controller's Plan condition and Ready message; it returns the id.
func pending(t *testing.T, tf *v1alpha2.Terraform) string {
	t.Helper()
	id := tf.Status.Plan.Pending
	if !strings.HasPrefix(id, "plan-") {
		t.Fatalf("status.plan.pending = %q, want a plan id; Ready = %s", id, ready(tf))
	}
	wantCondition(t, tf, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	wantCondition(t, tf, v1alpha2.ConditionReady, v1alpha2.ReasonPlannedWithChanges, `Plan generated: set approvePlan: "`+id+`" to approve this plan.`)
	return id
}

// approveAndApply sets approvePlan to id, reconciles, and checks the
// object applied that plan.
func (w *world) approveAndApply(name, id string) *v1alpha2.Terraform {
	w.t.Helper()
	w.edit(name, func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = id })
	w.reconcile()
	tf := w.get(name)
	wantCondition(w.t, tf, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if tf.Status.Plan.LastApplied != id || tf.Status.Plan.Pending != "" {
		w.t.Errorf("status.plan = %+v, want lastApplied %s and nothing pending", tf.Status.Plan, id)
	}
	return tf
}

// tc000030: manual mode: the plan waits, and goes on waiting.
func tc000030(t *testing.T, w *world) {
	tf := w.module("helloworld-plan-only-no-outputs", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	w.apply(tf)
	w.reconcile()
	id := pending(t, w.get(tf.Name))
	w.wantPlanSecret(tf.Name, id)
	w.reconcile()
	if got := pending(t, w.get(tf.Name)); got != id {
		t.Errorf("status.plan.pending on the next pass = %s, want %s still", got, id)
	}
	if n := w.get(tf.Name).Status.Plan.LastApplied; n != "" {
		t.Errorf("status.plan.lastApplied = %q, want nothing applied", n)
	}
}

// wantReadablePlan checks the ConfigMap of the plan as people read it
// (storeReadablePlan: human): tfplan-default-<name>, owned by the object,
// the plan id in savedPlan; it returns the text.
func (w *world) wantReadablePlan(tf, id string) string {
	w.t.Helper()
	cm, err := w.c.Client.CoreV1().ConfigMaps(w.ns).Get(context.Background(), "tfplan-default-"+tf, metav1.GetOptions{})
	if err != nil {
		w.t.Fatalf("plan ConfigMap tfplan-default-%s: %v", tf, err)
	}
	obj := w.get(tf)
	if cm.Annotations["savedPlan"] != id || len(cm.Data) != 1 || len(cm.OwnerReferences) == 0 || cm.OwnerReferences[0].UID != obj.UID {
		w.t.Errorf("plan ConfigMap tfplan-default-%s: annotations %v, %d keys, owners %v, want savedPlan %s, one key, owned by the object", tf, cm.Annotations, len(cm.Data), cm.OwnerReferences, id)
	}
	return cm.Data["tfplan"]
}

// tc000031: storeReadablePlan: human keeps the plan as tofu show prints
// it in a ConfigMap beside the plan Secret.
func tc000031(t *testing.T, w *world) {
	tf := w.module("tf-helloworld-w-plan-in-cm-no-outputs", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	tf.Spec.StoreReadablePlan = "human"
	w.apply(tf)
	w.reconcile()
	id := pending(t, w.get(tf.Name))
	w.wantPlanSecret(tf.Name, id)
	const want = "\nChanges to Outputs:\n  + hello_world = \"Hello, World!\"\n\nYou can apply this plan to save these new output values to the OpenTofu\nstate, without changing any real infrastructure.\n"
	if got := w.wantReadablePlan(tf.Name, id); got != want {
		t.Errorf("plan ConfigMap text = %q, want %q", got, want)
	}
}

// tc000044: planOnly plans and never applies; the readable plan is kept,
// and Ready says the object is in plan only mode.
func tc000044(t *testing.T, w *world) {
	tf := w.module("helloworld-plan-only", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	tf.Spec.PlanOnly = true
	tf.Spec.StoreReadablePlan = "human"
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-helloworld-plan-only")
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionUnknown || c.Reason != v1alpha2.ReasonPlannedWithChanges || c.Message != "Plan generated: This object is in the plan only mode." {
		t.Errorf("Ready = %s, want Unknown %s: Plan generated: This object is in the plan only mode.", ready(got), v1alpha2.ReasonPlannedWithChanges)
	}
	if text := w.wantReadablePlan(tf.Name, got.Status.Plan.Pending); !strings.Contains(text, `+ hello_world = "Hello, World!"`) {
		t.Errorf("plan ConfigMap text = %q, want the output's creation", text)
	}
	if w.getSecret("tf-output-helloworld-plan-only") != nil {
		t.Errorf("output Secret tf-output-helloworld-plan-only exists, want none: nothing is applied")
	}
}

// outputsSpec is writeOutputsToSecret of one Secret and the outputs.
func outputsSpec(name string, outputs ...string) *v1alpha2.WriteOutputsToSecretSpec {
	return &v1alpha2.WriteOutputsToSecretSpec{Name: name, Outputs: outputs}
}

// tc000040: the outputs listed, with the labels and annotations given.
func tc000040(t *testing.T, w *world) {
	tf := w.module("helloworld-controlled-output", "hello-world", "0.1.0")
	tf.Spec.WriteOutputsToSecret = &v1alpha2.WriteOutputsToSecretSpec{
		Name:        "tf-output-helloworld-controlled-output",
		Labels:      map[string]string{"my-new-label": "exists"},
		Annotations: map[string]string{"my-new-annotation": "also-exists"},
		Outputs:     []string{"hello_world"},
	}
	w.apply(tf)
	w.reconcile()
	s := w.wantOutputs("tf-output-helloworld-controlled-output", tf.Name, map[string]string{"hello_world": "Hello, World!"})
	if s.Labels["my-new-label"] != "exists" || s.Annotations["my-new-annotation"] != "also-exists" {
		t.Errorf("output Secret labels %v, annotations %v, want my-new-label: exists and my-new-annotation: also-exists", s.Labels, s.Annotations)
	}
}

// tc000041: no outputs listed: every output.
func tc000041(t *testing.T, w *world) {
	tf := w.module("helloworld-all-output", "hello-world", "0.1.0")
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-helloworld-all-output")
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-helloworld-all-output", tf.Name, map[string]string{"hello_world": "Hello, World!"})
}

// tc000042: an output mapped to a key with a dot (output:key).
func tc000042(t *testing.T, w *world) {
	tf := w.module("tf-output-name-contains-dot", "outputs-dots", "0.1.0")
	tf.Spec.WriteOutputsToSecret = outputsSpec("agekeytf-output-name-contains-dot", "age_agekey:age.agekey")
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("agekeytf-output-name-contains-dot", tf.Name, map[string]string{"age.agekey": "AGE-SECRET"})
}

// tc000043: an output Secret deleted is written again on the next pass.
func tc000043(t *testing.T, w *world) {
	const name = "tf-output-helloworld-controlled-output-should-be-reconciled"
	tf := w.module("helloworld-controlled-output-should-be-reconciled", "hello-world", "0.1.0")
	tf.Spec.WriteOutputsToSecret = outputsSpec(name, "hello_world")
	w.apply(tf)
	w.reconcile()
	old := w.wantOutputs(name, tf.Name, map[string]string{"hello_world": "Hello, World!"})
	if err := w.c.Client.CoreV1().Secrets(w.ns).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	w.reconcile()
	s := w.wantOutputs(name, tf.Name, map[string]string{"hello_world": "Hello, World!"})
	if s.UID == old.UID {
		t.Errorf("output Secret uid = %s, want a new Secret", s.UID)
	}
}

// tc000050: manual approval of the pending plan applies it.
func tc000050(t *testing.T, w *world) {
	tf := w.module("tf-plan-and-manual-approve-no-output", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	w.apply(tf)
	w.reconcile()
	id := pending(t, w.get(tf.Name))
	w.wantPlanSecret(tf.Name, id)
	wantAvailable(t, w.approveAndApply(tf.Name, id), "hello_world")
	w.wantNoStateSecret(tf.Name)
}

// tc000053: a pending plan is planned again when the source moves on,
// and the new plan is the one to approve.
func tc000053(t *testing.T, w *world) {
	tf := w.module("tf-pending-plan-replan-on-source-change", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	w.apply(tf)
	w.reconcile()
	first := pending(t, w.get(tf.Name))
	w.wantPlanSecret(tf.Name, first)
	w.push(tf.Name, "testdata/conformance/hello-world-2", "0.2.0")
	w.reconcile()
	got := w.get(tf.Name)
	second := pending(t, got)
	if second == first || !strings.HasPrefix(got.Status.LastPlannedRevision, "0.2.0@") {
		t.Errorf("pending plan after the source moved = %s (revision %s), want a new plan of 0.2.0, not %s", second, got.Status.LastPlannedRevision, first)
	}
	w.wantPlanSecret(tf.Name, second)
	wantAvailable(t, w.approveAndApply(tf.Name, second), "hello_world")
}

// tc000054: a pending plan is planned again when the object's spec
// changes (its generation), and stays the plan to approve.
func tc000054(t *testing.T, w *world) {
	tf := w.module("tf-pending-plan-replan-on-spec-change", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	id := pending(t, got)
	initial := got.Status.LastPlannedGeneration
	if initial != got.Generation {
		t.Errorf("status.lastPlannedGeneration = %d, want the generation, %d", initial, got.Generation)
	}
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.Interval = metav1.Duration{Duration: 15 * time.Second} })
	w.reconcile()
	got = w.get(tf.Name)
	if got.Status.LastPlannedGeneration <= initial || got.Status.LastPlannedGeneration != got.Generation {
		t.Errorf("status.lastPlannedGeneration after a spec change = %d (generation %d), want the new generation", got.Status.LastPlannedGeneration, got.Generation)
	}
	if again := pending(t, got); again != id {
		t.Errorf("pending plan after a spec change = %s, want %s still: nothing it plans changed", again, id)
	}
	w.approveAndApply(tf.Name, id)
	w.wantNoStateSecret(tf.Name)
}

// tc000051: a pending plan whose source moved on, with approvePlan
// replan-<the pending id>: planned again, and the new plan is the one to
// approve.
func tc000051(t *testing.T, w *world) {
	tf := w.module("tf-plan-and-manual-approve-replan-no-output", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	w.apply(tf)
	w.reconcile()
	first := pending(t, w.get(tf.Name))
	w.wantPlanSecret(tf.Name, first)
	w.push(tf.Name, "testdata/conformance/hello-world-2", "0.2.0")
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = "re" + first })
	w.reconcile()
	second := pending(t, w.get(tf.Name))
	if second == first {
		t.Errorf("pending plan after replan = %s, want a new plan of 0.2.0", second)
	}
	wantAvailable(t, w.approveAndApply(tf.Name, second), "hello_world")
}

// tc000061: object and list variables; non-string outputs written as
// JSON beside their __type keys.
func tc000061(t *testing.T, w *world) {
	tf := w.module("tf-hcl-vars-output", "hcl-vars-output", "0.1.0")
	tf.Spec.Vars = []v1alpha2.Variable{
		{Name: "cluster_spec", Value: jsonValue(t, `{"region":"eu-test-1","env":"stg","cluster":"winter-squirrel","active":true,"nodes":10}`)},
		{Name: "zones", Value: jsonValue(t, `["a","b","c"]`)},
	}
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-tf-hcl-vars-output", "active", "cluster_id", "node_count", "azs")
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-tf-hcl-vars-output", tf.Name, map[string]string{
		"cluster_id":       "eu-test-1:stg:winter-squirrel",
		"active":           "true",
		"active__type":     `"bool"`,
		"node_count":       "10",
		"node_count__type": `"number"`,
		"azs":              "[\n      \"eu-test-1a\",\n      \"eu-test-1b\",\n      \"eu-test-1c\"\n    ]",
		"azs__type":        "[\n      \"list\",\n      \"string\"\n    ]",
	})
}

// tc000062: vars and varsFrom a Secret, together.
func tc000062(t *testing.T, w *world) {
	w.secret("sc-hcl-vars-encoding", map[string]string{"access_key": "1234567890", "secret_key": "abcdefghij"})
	tf := w.module("tf-hcl-vars-encoding", "hcl-vars", "0.1.0")
	tf.Spec.Vars = varsOf(t, "cluster_name", "test-vars-cluster")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "Secret", Name: "sc-hcl-vars-encoding"}}
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-tf-hcl-vars-encoding", "json_blob")
	w.apply(tf)
	w.reconcile()
	wantReady(t, w.get(tf.Name))
	w.wantOutputs("tf-output-tf-hcl-vars-encoding", tf.Name, map[string]string{
		"json_blob": `{"AccessKey":"1234567890","Cluster":"test-vars-cluster","SecretKey":"abcdefghij"}`,
	})
}

// tc000063: spec.values is the object variable values.
func tc000063(t *testing.T, w *world) {
	tf := w.module("tf-hcl-values-encoding", "hcl-values", "0.1.0")
	tf.Spec.Values = jsonValue(t, `{"cluster_name":"my-cluster","access_key":"my-access-key","secret_key":"my-secret-key"}`)
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-tf-hcl-values-encoding", "values_json_blob")
	w.apply(tf)
	w.reconcile()
	wantReady(t, w.get(tf.Name))
	w.wantOutputs("tf-output-tf-hcl-values-encoding", tf.Name, map[string]string{
		"values_json_blob": `{"Values_AccessKey":"my-access-key","Values_Cluster":"my-cluster","Values_SecretKey":"my-secret-key"}`,
	})
}

// tc000064: a module whose main.tf is main.tf.tpl, rendered over
// spec.values (.Values) before the plan.
func tc000064(t *testing.T, w *world) {
	tf := w.module("tf-hcl-values-tmpl-encoding", "hcl-vars-template", "0.1.0")
	tf.Spec.Values = jsonValue(t, `{"cluster_name":"my-cluster","access_key":"my-access-key","secret_key":"my-secret-key"}`)
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-tf-hcl-values-tmpl-encoding", "json_blob")
	w.apply(tf)
	w.reconcile()
	wantReady(t, w.get(tf.Name))
	w.wantOutputs("tf-output-tf-hcl-values-tmpl-encoding", tf.Name, map[string]string{
		"json_blob": `{"Values_AccessKey":"my-access-key","Values_Cluster":"my-cluster","Values_SecretKey":"my-secret-key"}`,
	})
}

// hello is the object of the hello-env module, its outputs written to
// tf-output-<name>.
func (w *world) hello(name string) *v1alpha2.Terraform {
	tf := w.module(name, "hello-env", "0.1.0")
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-"+name, "hello_world")
	return tf
}

// varsOf are spec.vars of string values.
func varsOf(t *testing.T, kv ...string) []v1alpha2.Variable {
	var out []v1alpha2.Variable
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, v1alpha2.Variable{Name: kv[i], Value: jsonValue(t, `"`+kv[i+1]+`"`)})
	}
	return out
}

// tc000060: spec.vars.
func tc000060(t *testing.T, w *world) {
	tf := w.hello("helloworld-env-controlled-output")
	tf.Spec.Vars = varsOf(t, "subject", "my cat")
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"hello_world": "Hello, my cat!"})
}

// tc000070: varsFrom a Secret, every key.
func tc000070(t *testing.T, w *world) {
	w.secret("my-vars-helloworld-vars-from-secret", map[string]string{"subject": "my secret cat"})
	tf := w.hello("helloworld-vars-from-secret")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "Secret", Name: "my-vars-helloworld-vars-from-secret"}}
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"hello_world": "Hello, my secret cat!"})
}

// tc000071: varsFrom a Secret, the keys varsKeys names.
func tc000071(t *testing.T, w *world) {
	w.secret("my-vars-helloworld-vars-from-with-varkeys", map[string]string{"subject": "my secret cat", "unused": "unused value"})
	tf := w.hello("helloworld-vars-from-with-varkeys")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "Secret", Name: "my-vars-helloworld-vars-from-with-varkeys", VarsKeys: []string{"subject"}}}
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"hello_world": "Hello, my secret cat!"})
}

// tc000072: a varsFrom Secret that does not exist is VarsGenerationFailed;
// marked optional, the variable's default is used; once the Secret
// exists, spec.force applies its value.
func tc000072(t *testing.T, w *world) {
	const vars = "my-vars-helloworld-vars-from-optional-secret-controlled-output"
	tf := w.hello("helloworld-vars-from-optional-secret-controlled-output")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "Secret", Name: vars}}
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	c := condition(got, v1alpha2.ConditionReady)
	if c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonVarsGenerationFailed || !strings.Contains(c.Message, "Secret "+vars+" not found") {
		t.Errorf("Ready with the Secret missing = %s, want False %s saying Secret %s is not found", ready(got), v1alpha2.ReasonVarsGenerationFailed, vars)
	}
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.VarsFrom[0].Optional = true })
	w.reconcile()
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"hello_world": "Hello, World!"})

	w.secret(vars, map[string]string{"subject": "my secret cat"})
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.Force = true })
	w.reconcile()
	got = w.get(tf.Name)
	if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonOutputsWritten || c.Message != "Outputs written: "+got.Status.LastAttemptedRevision {
		t.Errorf("Ready once the Secret exists = %s, want True %s: Outputs written: <revision>", ready(got), v1alpha2.ReasonOutputsWritten)
	}
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"hello_world": "Hello, my secret cat!"})
}

// multiVar is the object of the multi-var module, its cluster_id written
// to tf-output-<name>.
func (w *world) multiVar(name string) *v1alpha2.Terraform {
	tf := w.module(name, "multi-var", "0.1.0")
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-"+name, "cluster_id")
	return tf
}

// tc000073: varsFrom two Secrets, one of them in part.
func tc000073(t *testing.T, w *world) {
	w.secret("s1", map[string]string{"cluster_name": "garfield"})
	w.secret("s2", map[string]string{"region": "eu-west-1", "environment": "dev"})
	tf := w.multiVar("tf-vars-from-many-secrets")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "Secret", Name: "s1"}, {Kind: "Secret", Name: "s2", VarsKeys: []string{"environment", "region"}}}
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"cluster_id": "dev-eu-west-1-garfield"})
}

// tc000075: a varsKeys entry that renames a key (key:variable).
func tc000075(t *testing.T, w *world) {
	w.secret("my-vars-helloworld-vars-from-with-varkeys-rename", map[string]string{"test-data": "test data", "unused": "unused value"})
	tf := w.hello("helloworld-vars-from-with-varkeys-rename")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "Secret", Name: "my-vars-helloworld-vars-from-with-varkeys-rename", VarsKeys: []string{"test-data:subject"}}}
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"hello_world": "Hello, test data!"})
}

// tc000080: varsFrom a ConfigMap.
func tc000080(t *testing.T, w *world) {
	w.configMap("my-vars-helloworld-vars-from-configmap", map[string]string{"subject": "my plain cat"})
	tf := w.hello("helloworld-vars-from-configmap")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "ConfigMap", Name: "my-vars-helloworld-vars-from-configmap"}}
	w.apply(tf)
	w.reconcile()
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"hello_world": "Hello, my plain cat!"})
}

// tc000081: varsFrom two ConfigMaps, with a rename and a subset.
func tc000081(t *testing.T, w *world) {
	w.configMap("cm1", map[string]string{"bad-key": "felix"})
	w.configMap("cm2", map[string]string{"region": "eu-west-1", "environment": "dev"})
	tf := w.multiVar("tf-vars-from-many-config-maps")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{
		{Kind: "ConfigMap", Name: "cm1", VarsKeys: []string{"bad-key:cluster_name"}},
		{Kind: "ConfigMap", Name: "cm2", VarsKeys: []string{"environment", "region"}},
	}
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"cluster_id": "dev-eu-west-1-felix"})
}

// tc000090: a varsFrom key overrides spec.vars of the same name.
func tc000090(t *testing.T, w *world) {
	w.secret("my-overridden-vars", map[string]string{"subject": "my overridden cat"})
	tf := w.hello("helloworld-env-override-controlled-output")
	tf.Spec.Vars = varsOf(t, "subject", "my cat")
	tf.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "Secret", Name: "my-overridden-vars"}}
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-"+tf.Name, tf.Name, map[string]string{"hello_world": "Hello, my overridden cat!"})
}

// tc000100: applied by hand; a new source revision is a new pending
// plan, the applied one kept.
func tc000100(t *testing.T, w *world) {
	tf := w.module("tf-source-changed-manual-approve-no-output", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	w.apply(tf)
	w.reconcile()
	id := pending(t, w.get(tf.Name))
	w.wantPlanSecret(tf.Name, id)
	wantAvailable(t, w.approveAndApply(tf.Name, id), "hello_world")
	w.push(tf.Name, "testdata/conformance/hello-world-2", "0.2.0")
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	if got.Status.Plan.Pending == "" || got.Status.Plan.Pending == id || got.Status.Plan.LastApplied != id {
		t.Errorf("status.plan after the source changed = %+v, want a new pending plan and %s still last applied", got.Status.Plan, id)
	}
}

// tc000110: planned by hand, then approvePlan: auto applies it; a new
// source revision is planned and applied.
func tc000110(t *testing.T, w *world) {
	tf := w.module("tf-source-changed-auto-approve-no-output", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	w.apply(tf)
	w.reconcile()
	id := pending(t, w.get(tf.Name))
	w.wantPlanSecret(tf.Name, id)
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = v1alpha2.ApprovePlanAuto })
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if got.Status.Plan.LastApplied != id || got.Status.Plan.Pending != "" {
		t.Errorf("status.plan = %+v, want lastApplied the plan that was pending, %s, and nothing pending", got.Status.Plan, id)
	}
	w.push(tf.Name, "testdata/conformance/hello-world-2", "0.2.0")
	w.reconcile()
	got = w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if got.Status.Plan.LastApplied == id || got.Status.Plan.Pending != "" || !strings.HasPrefix(got.Status.LastAppliedRevision, "0.2.0@") {
		t.Errorf("status after the source changed: plan %+v, lastAppliedRevision %s, want a new plan applied from 0.2.0", got.Status.Plan, got.Status.LastAppliedRevision)
	}
	w.wantPlanSecret(tf.Name, got.Status.Plan.LastApplied)
}

// tc000120: deleting the object deletes its output Secret, then lets the
// object go.
func tc000120(t *testing.T, w *world) {
	tf := w.module("helloworld-delete", "hello-world", "0.1.0")
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-helloworld-delete", "hello_world")
	w.apply(tf)
	w.reconcile()
	w.wantOutputs("tf-output-helloworld-delete", tf.Name, map[string]string{"hello_world": "Hello, World!"})
	w.wantPlanSecret(tf.Name, w.get(tf.Name).Status.Plan.LastApplied)
	w.delete(tf.Name)
	w.reconcile()
	if w.get(tf.Name) != nil {
		t.Errorf("Terraform %s after its deletion was reconciled: still there", tf.Name)
	}
	if w.getSecret("tf-output-helloworld-delete") != nil {
		t.Errorf("output Secret tf-output-helloworld-delete after the object's deletion: still there")
	}
	if w.getSecret("tfplan-default-helloworld-delete") != nil {
		t.Errorf("plan Secret tfplan-default-helloworld-delete after the object's deletion: still there")
	}
}

// localStatePath is the local state file of Terraform tf, which the
// world's controller keeps (no backendConfig): the namespace is its
// client and environment.
func (w *world) localStatePath(tf string) string {
	return filepath.Join(w.cfg.Pipeline.StateDir(), "state", w.ns, w.ns, tf+".tfstate")
}

// dropFromState removes resource name from the state of Terraform tf, as
// a change made outside strata would: drift. The state is the local
// state the world's controller keeps (no backendConfig).
func (w *world) dropFromState(tf, name string) {
	w.t.Helper()
	path := w.localStatePath(tf)
	b, err := os.ReadFile(path)
	if err != nil {
		w.t.Fatalf("read the state of %s: %v", tf, err)
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		w.t.Fatal(err)
	}
	var kept []any
	for _, r := range st["resources"].([]any) {
		if r.(map[string]any)["name"] != name {
			kept = append(kept, r)
		}
	}
	if len(kept) == len(st["resources"].([]any)) {
		w.t.Fatalf("state of %s has no resource %s", tf, name)
	}
	st["resources"], st["serial"] = kept, st["serial"].(float64)+1
	if b, err = json.Marshal(st); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// configMapStack is the object of the configmap module: a resource that
// stands for the ConfigMap the specs' module writes, its api_host an
// output.
func (w *world) configMapStack(name string) *v1alpha2.Terraform {
	return w.module(name, "configmap", "0.1.0")
}

// noDefaultPolicy makes the world's controller judge plans with no
// policy (--no-default-policy): the setting that gives the Tofu
// Controller's behaviour, where strata's default policy holds destroys.
func (w *world) noDefaultPolicy() {
	p := w.cfg.Pipeline.(reconcile.Pipeline)
	p.Options.NoDefaultPolicy = true
	w.cfg.Pipeline = p
	w.ctrl = controller.New(w.cfg)
}

// tc000121: an object deleted with destroyResourcesOnDeletion is
// destroyed, its plan Secret deleted, and then it goes. strata's default
// policy holds the destroy even under approvePlan: auto (the deliberate
// difference, checked first); with no default policy, the Tofu
// Controller's behaviour.
func tc000121(t *testing.T, w *world) {
	tf := w.configMapStack("tf-destroy-on-delete")
	tf.Spec.DestroyResourcesOnDeletion = true
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if got.Status.Plan.IsDestroyPlan {
		t.Errorf("status.plan.isDestroyPlan after the first apply = true, want false")
	}
	w.wantPlanSecret(tf.Name, got.Status.Plan.LastApplied)
	wantAvailable(t, got, "api_host")

	w.delete(tf.Name)
	w.reconcile()
	held := w.get(tf.Name)
	if held == nil || !held.Status.Plan.IsDestroyPlan || held.Status.Plan.Pending == "" || !strings.Contains(condition(held, v1alpha2.ConditionReady).Message, "deny_delete") {
		t.Fatalf("object deleted under the default policy = %+v, want it kept, its destroy plan pending, held by deny_delete", held)
	}

	w.noDefaultPolicy()
	w.reconcile()
	if w.get(tf.Name) != nil {
		t.Errorf("Terraform %s after its destroy with no default policy: still there", tf.Name)
	}
	if w.getSecret("tfplan-default-"+tf.Name) != nil {
		t.Errorf("plan Secret of %s after its object went: still there", tf.Name)
	}
}

// tc000130: spec.destroy: true destroys the object's resources ("Destroy
// applied successfully", a destroy plan). strata's default policy holds
// the destroy under approvePlan: auto (the deliberate difference); with
// no default policy it is applied, as by the Tofu Controller.
func tc000130(t *testing.T, w *world) {
	tf := w.configMapStack("helloworld-destroy-no-outputs")
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	w.wantPlanSecret(tf.Name, got.Status.Plan.LastApplied)
	wantAvailable(t, got, "api_host")

	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.Destroy = true })
	w.reconcile()
	held := w.get(tf.Name)
	if !held.Status.Plan.IsDestroyPlan || held.Status.Plan.Pending == "" || !strings.Contains(condition(held, v1alpha2.ConditionReady).Message, "deny_delete") {
		t.Errorf("spec.destroy under the default policy: status.plan %+v, Ready %s, want the destroy plan pending, held by deny_delete", held.Status.Plan, ready(held))
	}

	w.noDefaultPolicy()
	w.reconcile()
	got = w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Destroy applied successfully")
	if !got.Status.Plan.IsDestroyPlan || got.Status.Plan.Pending != "" {
		t.Errorf("status.plan after the destroy = %+v, want a destroy plan applied, nothing pending", got.Status.Plan)
	}
}

// tc000131: an object deleted with destroyResourcesOnDeletion after its
// resources and its state went outside strata: nothing to destroy, and
// the object goes.
func tc000131(t *testing.T, w *world) {
	tf := w.configMapStack("tf-destroy-no-changes")
	tf.Spec.DestroyResourcesOnDeletion = true
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if got.Status.Plan.IsDestroyPlan {
		t.Errorf("status.plan.isDestroyPlan = true, want false")
	}
	w.wantPlanSecret(tf.Name, got.Status.Plan.LastApplied)
	wantAvailable(t, got, "api_host")
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = "" })
	w.dropFromState(tf.Name, "example")
	w.delete(tf.Name)
	w.reconcile()
	if left := w.get(tf.Name); left != nil {
		t.Errorf("Terraform %s with nothing left to destroy = %s, want it gone", tf.Name, ready(left))
	}
}

// tc000140: under approvePlan: auto, drift is planned and applied away,
// and the status says when drift was found and applied.
func tc000140(t *testing.T, w *world) {
	tf := w.configMapStack("tf-drift-detected-auto-approve-no-output")
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	w.wantPlanSecret(tf.Name, got.Status.Plan.LastApplied)
	wantAvailable(t, got, "api_host")
	w.dropFromState(tf.Name, "example")
	w.reconcile()
	got = w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if got.Status.LastDriftDetectedAt.IsZero() || got.Status.LastAppliedByDriftDetectionAt.IsZero() || got.Status.Plan.Pending != "" {
		t.Errorf("status after drift under auto: lastDriftDetectedAt %v, lastAppliedByDriftDetectionAt %v, plan %+v, want both set and nothing pending",
			got.Status.LastDriftDetectedAt, got.Status.LastAppliedByDriftDetectionAt, got.Status.Plan)
	}
}

// tc000150: in manual mode, drift is reported (Ready False DriftDetected)
// and not applied.
func tc000150(t *testing.T, w *world) {
	tf := w.configMapStack("tf-drift-detected-manual-approve-no-output")
	tf.Spec.ApprovePlan = ""
	w.apply(tf)
	w.reconcile()
	id := pending(t, w.get(tf.Name))
	w.wantPlanSecret(tf.Name, id)
	wantAvailable(t, w.approveAndApply(tf.Name, id), "api_host")
	w.dropFromState(tf.Name, "example")
	w.reconcile()
	got := w.get(tf.Name)
	c := condition(got, v1alpha2.ConditionReady)
	// The message is the plan as tofu prints it: its second line is
	// tofu's first words.
	lines := strings.Split(c.Message, "\n")
	if got.Status.LastDriftDetectedAt.IsZero() || c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonDriftDetected ||
		len(lines) < 3 || lines[1] != "OpenTofu used the selected providers to generate the following execution" || !strings.Contains(c.Message, "terraform_data.example") {
		t.Errorf("after drift in manual mode: lastDriftDetectedAt %v, Ready %s, want it set and False %s, the plan in tofu's words naming terraform_data.example", got.Status.LastDriftDetectedAt, ready(got), v1alpha2.ReasonDriftDetected)
	}
	if got.Status.Plan.LastApplied != id {
		t.Errorf("status.plan.lastApplied after drift = %s, want %s still: nothing applied", got.Status.Plan.LastApplied, id)
	}
}

// tc000160: a new revision that changes nothing the module plans is
// planned without changes: attempted and planned revisions move on, the
// applied one stays.
func tc000160(t *testing.T, w *world) {
	tf := w.module("tf-unrelated-changed-auto-approve-no-output", "hello-world", "0.1.0")
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	applied, id := got.Status.LastAppliedRevision, got.Status.Plan.LastApplied
	w.push(tf.Name, "testdata/conformance/hello-world-readme", "0.1.1")
	w.reconcile()
	got = w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedNoChanges, "Plan no changes")
	st := got.Status
	if st.Plan.Pending != "" || st.Plan.LastApplied != id || st.LastAppliedRevision != applied ||
		!strings.HasPrefix(st.LastAttemptedRevision, "0.1.1@") || st.LastPlannedRevision != st.LastAttemptedRevision {
		t.Errorf("status after an unrelated change = plan %+v, applied %s, attempted %s, planned %s; want nothing pending, %s applied from %s, 0.1.1 attempted and planned",
			st.Plan, st.LastAppliedRevision, st.LastAttemptedRevision, st.LastPlannedRevision, id, applied)
	}
	// The plan without changes is saved too, under its own id.
	s := w.getSecret("tfplan-default-" + tf.Name)
	if s == nil || s.Annotations["savedPlan"] == id || !strings.HasPrefix(s.Annotations["savedPlan"], "plan-") {
		t.Fatalf("plan Secret after the plan without changes = %v, want it saved under an id other than the applied %s", s, id)
	}
	w.wantPlanSecret(tf.Name, s.Annotations["savedPlan"])
}

// tc000170: an apply that fails is TerraformAppliedFail, and its plan is
// not kept pending; once the cause is gone, the object is planned and
// applied again.
func tc000170(t *testing.T, w *world) {
	blocker := filepath.Join(t.TempDir(), "existing-configmap")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// The failed apply leaves the resource tainted (the specs' ConfigMap
	// is never created), and its replace is a destroy strata's default
	// policy holds: run as the Tofu Controller does.
	w.noDefaultPolicy()
	tf := w.module("tf-external-entity-auto-approve-no-output", "apply-blocked", "0.1.0")
	tf.Spec.Vars = varsOf(t, "blocker", blocker)
	tf.Spec.RetryInterval = &metav1.Duration{Duration: time.Second}
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	if c := condition(got, v1alpha2.ConditionApply); c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonAppliedFail {
		t.Fatalf("Apply condition while the apply fails = %s %s, want False %s; Ready %s", c.Status, c.Reason, v1alpha2.ReasonAppliedFail, ready(got))
	}
	if got.Status.Plan.Pending != "" {
		t.Errorf("status.plan.pending after the failed apply = %q, want none", got.Status.Plan.Pending)
	}
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond)
	w.reconcile()
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
}

// tc000201: with disableDriftDetection, an applied object is never said
// to have no drift: no drift is looked for.
func tc000201(t *testing.T, w *world) {
	tf := w.module("tf-drift-detect-auto-approve", "hello-world", "0.1.0")
	tf.Spec.DisableDriftDetection = true
	tf.Spec.Interval = metav1.Duration{Duration: time.Second}
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	wantAvailable(t, got, "hello_world")
	for range 3 {
		time.Sleep(1100 * time.Millisecond)
		w.reconcile()
		if c := condition(w.get(tf.Name), v1alpha2.ConditionReady); c.Reason == "" || c.Reason == v1alpha2.ReasonNoDrift {
			t.Fatalf("Ready with drift detection disabled = %s %s, want a reason, not %s", c.Status, c.Reason, v1alpha2.ReasonNoDrift)
		}
	}
}

// tc000230: approvePlan: disable only looks for drift: none is NoDrift,
// spec.force included; drift is Ready False DriftDetected, never applied.
func tc000230(t *testing.T, w *world) {
	tf := w.configMapStack("tr-drift-detection-only-mode")
	w.apply(tf)
	w.reconcile()
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionReady, v1alpha2.ReasonApplySucceeded, "")
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = v1alpha2.ApprovePlanDisable })
	w.reconcile()
	if c := condition(w.get(tf.Name), v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonNoDrift {
		t.Errorf("Ready in drift detection only mode = %s %s, want True %s", c.Status, c.Reason, v1alpha2.ReasonNoDrift)
	}
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.Force = true })
	w.reconcile()
	got := w.get(tf.Name)
	if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonNoDrift {
		t.Errorf("Ready with spec.force in drift detection only mode = %s %s, want True %s", c.Status, c.Reason, v1alpha2.ReasonNoDrift)
	}
	if !got.Status.LastDriftDetectedAt.IsZero() {
		t.Errorf("status.lastDriftDetectedAt = %v, want none: no drift yet", got.Status.LastDriftDetectedAt)
	}
	w.dropFromState(tf.Name, "example")
	w.reconcile()
	got = w.get(tf.Name)
	if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonDriftDetected || got.Status.LastDriftDetectedAt.IsZero() {
		t.Errorf("after drift in drift detection only mode: Ready %s, lastDriftDetectedAt %v, want False %s and set", ready(got), got.Status.LastDriftDetectedAt, v1alpha2.ReasonDriftDetected)
	}
}

// tc000243: spec.remediation.retries bounds the failed reconciles in a
// row: then Stalled True RetryLimitReached, and nothing runs; a change of
// the spec counts again from zero, and a new revision is taken up.
func tc000243(t *testing.T, w *world) {
	tf := w.module("retry", "plan-fails", "0.1.0")
	tf.Spec.Remediation = &v1alpha2.Remediation{Retries: 3}
	tf.Spec.RetryInterval = &metav1.Duration{Duration: time.Second}
	w.apply(tf)
	failUntilStalled := func(retries int64) {
		t.Helper()
		for range retries {
			w.reconcile()
			time.Sleep(1100 * time.Millisecond)
		}
		got := w.get(tf.Name)
		c := condition(got, "Stalled")
		if c.Status != metav1.ConditionTrue || c.Reason != controller.ReasonRetryLimitReached || c.Message != "Resource reached maximum number of retries." {
			t.Fatalf("Stalled after %d failures = %s %s: %q, want True %s; Ready %s", retries, c.Status, c.Reason, c.Message, controller.ReasonRetryLimitReached, ready(got))
		}
		if got.Status.ReconciliationFailures != retries {
			t.Errorf("status.reconciliationFailures = %d, want %d", got.Status.ReconciliationFailures, retries)
		}
	}
	failUntilStalled(3)
	ran := w.executed.Load()
	w.reconcile()
	got := w.get(tf.Name)
	if n := w.executed.Load(); n != ran || got.Status.ReconciliationFailures != 3 || condition(got, "Stalled").Reason != controller.ReasonRetryLimitReached {
		t.Errorf("a pass with the retries used up: %d more runs, %d failures, Stalled %s, want none, 3, still %s", n-ran, got.Status.ReconciliationFailures, condition(got, "Stalled").Reason, controller.ReasonRetryLimitReached)
	}
	if !strings.HasPrefix(got.Status.LastAttemptedRevision, "0.1.0@") {
		t.Errorf("lastAttemptedRevision = %s, want 0.1.0's", got.Status.LastAttemptedRevision)
	}

	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.Remediation.Retries = 2 })
	failUntilStalled(2)

	w.push(tf.Name, "testdata/conformance/plan-fails", "0.2.0")
	w.reconcile()
	if got := w.get(tf.Name); !strings.HasPrefix(got.Status.LastAttemptedRevision, "0.2.0@") {
		t.Errorf("lastAttemptedRevision after a new revision = %s, want 0.2.0's: a new revision is tried", got.Status.LastAttemptedRevision)
	}
}

// inventoryOf is the object's status.inventory as type.name, in order,
// with whether every entry has an identifier.
func inventoryOf(tf *v1alpha2.Terraform) ([]string, bool) {
	if tf.Status.Inventory == nil {
		return nil, true
	}
	var out []string
	ids := true
	for _, e := range tf.Status.Inventory.Entries {
		out = append(out, e.Type+"."+e.Name)
		ids = ids && e.Identifier != ""
	}
	return out, ids
}

// tc000280: enableInventory lists the resources the apply left in
// status.inventory, each with its id.
func tc000280(t *testing.T, w *world) {
	tf := w.configMapStack("tf-inventory-no-output")
	tf.Spec.EnableInventory = true
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	w.wantPlanSecret(tf.Name, got.Status.Plan.LastApplied)
	if inv, ids := inventoryOf(got); !cmp.Equal(inv, []string{"terraform_data.example"}) || !ids {
		t.Errorf("status.inventory = %+v, want terraform_data.example with its id", got.Status.Inventory)
	}
}

// tc000281: a module without outputs ends with exactly Ready, Apply and
// Plan, no Output condition.
func tc000281(t *testing.T, w *world) {
	tf := w.module("tf-manifest-no-outputs", "no-outputs", "0.1.0")
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	w.wantPlanSecret(tf.Name, got.Status.Plan.LastApplied)
	want := []cond{
		{"Ready", "True", v1alpha2.ReasonApplySucceeded, "Applied successfully: " + got.Status.LastAttemptedRevision},
		{"Apply", "True", v1alpha2.ReasonApplySucceeded, "Applied successfully"},
		{"Plan", "True", v1alpha2.ReasonPlannedWithChanges, "Plan generated"},
	}
	if diff := cmp.Diff(want, conditions(got)); diff != "" {
		t.Errorf("conditions mismatch (-want +got):\n%s", diff)
	}
}

// tc000300: spec.targets limits the apply to the resources named; without
// them, everything applies; deleted with destroyResourcesOnDeletion and
// targets, only the targets are destroyed (with no default policy, as the
// Tofu Controller applies a destroy).
func tc000300(t *testing.T, w *world) {
	w.noDefaultPolicy()
	tf := w.module("tf-multi-resources-targets", "multi-resources", "0.1.0")
	tf.Spec.Targets = []string{"terraform_data.one"}
	tf.Spec.DestroyResourcesOnDeletion = true
	tf.Spec.EnableInventory = true
	w.apply(tf)
	w.reconcile()
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if got := w.localStateResources(tf.Name); !cmp.Equal(got, []string{"terraform_data.one"}) {
		t.Errorf("state with targets [terraform_data.one] = %v, want only it", got)
	}
	if inv, _ := inventoryOf(w.get(tf.Name)); !cmp.Equal(inv, []string{"terraform_data.one"}) {
		t.Errorf("status.inventory with targets [terraform_data.one] = %v, want only it", inv)
	}
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.Targets = nil })
	w.reconcile()
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if got := w.localStateResources(tf.Name); !cmp.Equal(got, []string{"terraform_data.one", "terraform_data.two"}) {
		t.Errorf("state without targets = %v, want both resources", got)
	}
	if inv, _ := inventoryOf(w.get(tf.Name)); !cmp.Equal(inv, []string{"terraform_data.one", "terraform_data.two"}) {
		t.Errorf("status.inventory without targets = %v, want both, in order", inv)
	}
	w.edit(tf.Name, func(s *v1alpha2.TerraformSpec) { s.Targets = []string{"terraform_data.two"} })
	w.delete(tf.Name)
	w.reconcile()
	if left := w.get(tf.Name); left != nil {
		t.Fatalf("Terraform %s after its destroy = %s, want it gone", tf.Name, ready(left))
	}
	if got := w.localStateResources(tf.Name); !cmp.Equal(got, []string{"terraform_data.one"}) {
		t.Errorf("state after the targeted destroy = %v, want terraform_data.one left", got)
	}
}

// localStateResources lists the resources of Terraform tf's local state
// (the world's controller keeps it; no backendConfig), as type.name,
// sorted.
func (w *world) localStateResources(tf string) []string {
	w.t.Helper()
	b, err := os.ReadFile(w.localStatePath(tf))
	if err != nil {
		w.t.Fatalf("read the state of %s: %v", tf, err)
	}
	var st struct {
		Resources []struct{ Type, Name string }
	}
	if err := json.Unmarshal(b, &st); err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, r := range st.Resources {
		out = append(out, r.Type+"."+r.Name)
	}
	slices.Sort(out)
	return out
}

// tc000310: runnerPodTemplate.spec's nodeSelector, affinity and
// tolerations go, as written, on the runner Job's pod, which runs (the
// values are ones the test node satisfies; the spec's own would leave the
// pod unscheduled here, where a real runner pod runs).
func tc000310(t *testing.T, w *world) {
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	tf := w.module("node-selector-test-terraform", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	keep := false
	tf.Spec.AlwaysCleanupRunnerPod = &keep
	pod := &tf.Spec.RunnerPodTemplate.Spec
	pod.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
	pod.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "kubernetes.io/os", Operator: corev1.NodeSelectorOpIn, Values: []string{"linux"}}},
		}}},
	}}
	pod.Tolerations = []corev1.Toleration{{Key: "node.io/selector", Operator: corev1.TolerationOpEqual, Value: "testing"}}
	w.apply(tf)
	got := w.runnerJob(t).Spec.Template.Spec
	pending(t, w.get(tf.Name))
	if diff := cmp.Diff(pod.NodeSelector, got.NodeSelector); diff != "" {
		t.Errorf("runner pod nodeSelector mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(pod.Affinity, got.Affinity); diff != "" {
		t.Errorf("runner pod affinity mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(pod.Tolerations, got.Tolerations); diff != "" {
		t.Errorf("runner pod tolerations mismatch (-want +got):\n%s", diff)
	}
}

// runnerJob runs the world's objects with a jobs controller, the runner
// Jobs kept (alwaysCleanupRunnerPod: false on the object), and returns
// the first runner Job.
func (w *world) runnerJob(t *testing.T) batchv1.Job {
	t.Helper()
	var log testkit.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := w.jobsController(t, "leader", w.cfg.Cluster, &log).Reconcile(ctx, w.ns); err != nil {
		t.Fatalf("Reconcile(%s) = %v\n%s", w.ns, err, log.String())
	}
	list, err := w.c.Client.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{LabelSelector: jobs.LabelRunner + "=true"})
	if err != nil || len(list.Items) == 0 {
		t.Fatalf("runner Jobs = %v, %v, want the one kept (alwaysCleanupRunnerPod: false)\n%s", list, err, log.String())
	}
	return list.Items[0]
}

// tc000311: an init container on the runner pod (strata's image here,
// which the test node has; the spec's busybox it would pull): the runner
// Job's pod carries it, runs, and the run writes every output.
func tc000311(t *testing.T, w *world) {
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	tf := w.module("init-container-delay-all-output", "hello-world", "0.1.0")
	keep := false
	tf.Spec.AlwaysCleanupRunnerPod = &keep
	tf.Spec.WriteOutputsToSecret = &v1alpha2.WriteOutputsToSecretSpec{Name: "icdao-output-secret"}
	init := corev1.Container{Name: "testing", Image: w.c.StrataImage(t), ImagePullPolicy: corev1.PullNever, Args: []string{"version"}}
	tf.Spec.RunnerPodTemplate.Spec.InitContainers = []corev1.Container{init}
	w.apply(tf)
	pod := w.runnerJob(t).Spec.Template.Spec
	if len(pod.InitContainers) != 1 || pod.InitContainers[0].Name != "testing" || pod.InitContainers[0].Image != init.Image {
		t.Errorf("runner pod init containers = %+v, want testing, %s", pod.InitContainers, init.Image)
	}
	w.wantOutputs("icdao-output-secret", tf.Name, map[string]string{"hello_world": "Hello, World!"})
}

// tc000320: the object's volumes and volume mounts follow the runner
// pod's own, in order; without any, the pod has its own alone. The run,
// manual, stops to wait for an approval.
func tc000320(t *testing.T, w *world) {
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	tf := w.module("vol-mounts-test-terraform", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	keep := false
	tf.Spec.AlwaysCleanupRunnerPod = &keep
	tf.Spec.RunnerPodTemplate.Spec.Volumes = []corev1.Volume{{Name: "test-vol", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	tf.Spec.RunnerPodTemplate.Spec.VolumeMounts = []corev1.VolumeMount{{Name: "test-vol", MountPath: "/etc/test"}}
	w.apply(tf)
	pod := w.runnerJob(t).Spec.Template.Spec
	pending(t, w.get(tf.Name))
	var volumes, mounts []string
	for _, v := range pod.Volumes {
		volumes = append(volumes, v.Name)
	}
	for _, m := range pod.Containers[0].VolumeMounts {
		mounts = append(mounts, m.Name+":"+m.MountPath)
	}
	if diff := cmp.Diff([]string{"request", "work", "test-vol"}, volumes); diff != "" {
		t.Errorf("runner pod volumes mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"request:" + jobs.RequestDir, "work:" + jobs.WorkDir, "test-vol:/etc/test"}, mounts); diff != "" {
		t.Errorf("runner pod volume mounts mismatch (-want +got):\n%s", diff)
	}
}

// tc000360: spec.tfVarsFiles, relative to the source's root, set
// variables; one that does not exist fails the plan, naming it.
func tc000360(t *testing.T, w *world) {
	tf := w.module("tf-test-tf-vars-files", "tfvars-files", "0.1.0")
	tf.Spec.Path = "./terraform-tfvars-files"
	tf.Spec.TfVarsFiles = []string{"./terraform-tfvars-files/variables/test.tfvars"}
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-tf-test-tf-vars-files", "hello_world")
	w.apply(tf)
	bad := tf.DeepCopy()
	bad.Name = "tf-test-tf-vars-files-bad-path"
	bad.Spec.TfVarsFiles = append(bad.Spec.TfVarsFiles, "./does-not-exists.tfvars")
	bad.Spec.WriteOutputsToSecret = outputsSpec("tf-output-tf-test-tf-vars-files-bad-path", "hello_world")
	w.apply(bad)
	w.reconcile()
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	w.wantOutputs("tf-output-tf-test-tf-vars-files", tf.Name, map[string]string{"hello_world": "Hello, TfVarsFiles!"})
	got := w.get(bad.Name)
	if c := condition(got, v1alpha2.ConditionReady); c.Reason != v1alpha2.ReasonPlanFailed ||
		!strings.Contains(c.Message, "tfvars file's path does not exist") || !strings.Contains(c.Message, "does-not-exists.tfvars") {
		t.Errorf("Ready with a missing tfvars file = %s, want %s naming does-not-exists.tfvars", ready(got), v1alpha2.ReasonPlanFailed)
	}
}

// tc000362: spec.plan.lock: false is kept by the API server, and the
// object is planned (without the state lock).
func tc000362(t *testing.T, w *world) {
	tf := w.module("helloworld-plan-lock-disabled", "hello-world", "0.1.0")
	tf.Spec.ApprovePlan = ""
	no := false
	tf.Spec.Plan = &v1alpha2.PlanSpec{Lock: &no}
	w.apply(tf)
	if got := w.get(tf.Name); got.Spec.Plan == nil || got.Spec.Plan.Lock == nil || *got.Spec.Plan.Lock {
		t.Fatalf("spec.plan as the API server keeps it = %+v, want lock: false", got.Spec.Plan)
	}
	w.reconcile()
	pending(t, w.get(tf.Name))
}

// tc000330: a fileMappings Secret written into the workspace adds an
// output.
func tc000330(t *testing.T, w *world) {
	w.secret("test-file-mapping-w-output", map[string]string{"content": "\noutput \"from_file_mapping\" {\n  value = \"Hello, File mapping!\"\n}\n"})
	tf := w.module("tf-test-file-mapping-w-output", "hello-world", "0.1.0")
	tf.Spec.FileMappings = []v1alpha2.FileMapping{{
		Location: "workspace", Path: "output_from_file_mapping.tf",
		SecretRef: v1alpha2.SecretKeyReference{Name: "test-file-mapping-w-output", Key: "content"},
	}}
	tf.Spec.WriteOutputsToSecret = outputsSpec("tf-output-tf-test-file-mapping-w-output", "from_file_mapping")
	w.apply(tf)
	w.reconcile()
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	w.wantOutputs("tf-output-tf-test-file-mapping-w-output", tf.Name, map[string]string{"from_file_mapping": "Hello, File mapping!"})
}

// tc000350: a dependant waits, DependencyNotReady, while its dependency's
// plan waits for approval; once that is applied, it runs, reading the
// dependency's outputs.
func tc000350(t *testing.T, w *world) {
	dep := w.module("tf-depends-on", "hello-world", "0.1.0")
	dep.Spec.ApprovePlan = ""
	dep.Spec.WriteOutputsToSecret = outputsSpec("tf-depends-on-outputs")
	w.apply(dep)
	dependant := w.module("tf-hcl-values-depends-on", "hcl-values", "0.1.0")
	dependant.Spec.DependsOn = []v1alpha2.NamespacedObjectReference{{Name: "tf-depends-on"}}
	dependant.Spec.ReadInputsFromSecrets = []v1alpha2.ReadInputsFromSecretSpec{{Name: "tf-depends-on-outputs", As: "secret_key"}}
	dependant.Spec.Values = jsonValue(t, `{"cluster_name":"my-cluster","access_key":"my-access-key","secret_key":"${{ .secret_key.hello_world }}"}`)
	dependant.Spec.WriteOutputsToSecret = outputsSpec("tf-output-tf-hcl-values-depends-on", "values_json_blob")
	w.apply(dependant)
	w.reconcile()
	id := pending(t, w.get(dep.Name))
	w.wantPlanSecret(dep.Name, id)
	wantCondition(t, w.get(dependant.Name), v1alpha2.ConditionReady, v1alpha2.ReasonDependencyNotReady, "dependency '"+w.ns+"/tf-depends-on' is not ready")

	w.approveAndApply(dep.Name, id)
	if w.getSecret("tf-depends-on-outputs") == nil {
		t.Errorf("output Secret tf-depends-on-outputs: not found")
	}
	got := w.get(dependant.Name)
	wantCondition(t, got, v1alpha2.ConditionReady, v1alpha2.ReasonOutputsWritten, "Outputs written: "+got.Status.LastAttemptedRevision)
	w.wantOutputs("tf-output-tf-hcl-values-depends-on", dependant.Name, map[string]string{
		"values_json_blob": `{"Values_AccessKey":"my-access-key","Values_Cluster":"my-cluster","Values_SecretKey":"Hello, World!"}`,
	})
}

// tc000220: a module whose cloud {} block keeps its state in HCP
// Terraform (a fake of its API, the spec's weaveworks/dev), with
// backendConfig.disable and the token in the CLI configuration of
// cliConfigSecretRef: planned, its plan in the plan Secret, applied, the
// state in the cloud workspace; then destroyed with spec.destroy. The
// token is in no status, Event or plan Secret.
func tc000220(t *testing.T, w *world) {
	const token = "SENTINEL-tfc.atlasv1.token"
	s := tfetest.Start(t, "weaveworks", token)
	t.Setenv("SSL_CERT_FILE", s.CAFile)
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "tfc-helloworld", "main.tf"), `terraform {
  required_version = ">= 1.1.0"
  cloud {
    hostname     = "`+s.Host+`"
    organization = "weaveworks"
    workspaces {
      name = "dev"
    }
  }
}

output "hello_world" {
  value = "Hello, World TFC!"
}
`)
	w.push("tfrc-gitrepo-no-output", dir, "master")
	w.secret("terraform-cli-config", map[string]string{"terraform.tfrc": "credentials \"" + s.Host + "\" {\n  token = \"" + token + "\"\n}\n"})
	name := "tfrc-helloworld-no-outputs"
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: v1alpha2.ApprovePlanAuto, Path: "./tfc-helloworld",
			BackendConfig:      &v1alpha2.BackendConfigSpec{Disable: true},
			CliConfigSecretRef: &corev1.SecretReference{Name: "terraform-cli-config", Namespace: w.ns},
			SourceRef:          v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "tfrc-gitrepo-no-output"},
		},
	})
	w.reconcile()
	got := w.get(name)
	wantCondition(t, got, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	w.wantPlanSecret(name, got.Status.Plan.LastApplied)
	if st, ok := s.State("dev"); !ok || !strings.Contains(string(st), "Hello, World TFC!") {
		t.Errorf("the cloud workspace's state = %q, %v, want the module's output", st, ok)
	}
	w.wantNoStateSecret(name)
	w.edit(name, func(s *v1alpha2.TerraformSpec) { s.Destroy = true })
	w.reconcile()
	got = w.get(name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Destroy applied successfully")
	if !got.Status.Plan.IsDestroyPlan || got.Status.Plan.LastApplied == "" {
		t.Errorf("status.plan after the destroy = %+v, want a destroy plan applied", got.Status.Plan)
	}
	if n := s.Unauthorized(); n != 0 {
		t.Errorf("the fake refused %d requests without the token, want 0", n)
	}
	status, _ := json.Marshal(got.Status)
	seen := string(status)
	for _, ev := range w.events(name, "") {
		seen += ev.Message
	}
	if p := w.getSecret("tfplan-default-" + name); p != nil {
		seen += gunzip(t, p.Data["tfplan"])
	}
	if strings.Contains(seen, token) {
		t.Error("the token is in the object's status, its Events or its plan Secret")
	}
}

// gunzip is the text of gzipped bytes.
func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return string(out)
}

// healthCheckModule pushes the spec's health check module as the
// OCIRepository health-check: outputs foo, port and bar, foo and port
// those of the test's own server at addr (the spec's are google.com and
// 80).
func (w *world) healthCheckModule(addr string) {
	w.t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	dir := w.t.TempDir()
	testkit.WriteFile(w.t, filepath.Join(dir, "tf-health-check-example", "main.tf"),
		"output \"foo\" {\n  value = \""+host+"\"\n}\n\noutput \"port\" {\n  value = \""+port+"\"\n}\n\noutput \"bar\" {\n  value = \"/get\"\n}\n")
	w.push("health-check", dir, "master")
}

// healthCheckObject is the spec's object: auto, its state in the
// kubernetes backend, its outputs written to tf-output-NAME, with checks.
func (w *world) healthCheckObject(name string, checks ...v1alpha2.HealthCheck) *v1alpha2.Terraform {
	return &v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: v1alpha2.ApprovePlanAuto, Path: "./tf-health-check-example",
			BackendConfig:        &v1alpha2.BackendConfigSpec{SecretSuffix: name, ConfigPath: w.c.Kubeconfig},
			SourceRef:            v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "health-check"},
			HealthChecks:         checks,
			WriteOutputsToSecret: &v1alpha2.WriteOutputsToSecretSpec{Name: "tf-output-" + name},
		},
	}
}

// tc000241: tcp and http health checks templated from the outputs pass
// after the apply: HealthCheck True HealthChecksSucceed, and the three
// outputs written.
func tc000241(t *testing.T, w *world) {
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/get" {
			http.NotFound(rw, r)
		}
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	w.healthCheckModule(addr)
	name := "tf-health-check-auto-approve"
	w.apply(w.healthCheckObject(name,
		v1alpha2.HealthCheck{Name: "tcpTest", Type: "tcp", Address: "${{.foo}}:${{.port}}"},
		v1alpha2.HealthCheck{Name: "httpTest", Type: "http", URL: "http://" + addr + "${{.bar}}", Timeout: &metav1.Duration{Duration: 5 * time.Second}},
	))
	w.reconcile()
	got := w.get(name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if diff := cmp.Diff([]string{"bar", "foo", "port"}, got.Status.AvailableOutputs); diff != "" {
		t.Errorf("status.availableOutputs mismatch (-want +got):\n%s", diff)
	}
	host, port, _ := net.SplitHostPort(addr)
	w.wantOutputs("tf-output-"+name, name, map[string]string{"foo": host, "port": port, "bar": "/get"})
	wantCondition(t, got, v1alpha2.ConditionHealthCheck, v1alpha2.ReasonHealthChecksSucceeded, "Health checks succeeded")
}

// tc000242: a tcp check whose address is no template of the outputs (a
// bad address), and an http check of a URL the server does not serve:
// HealthCheck False HealthChecksFailed, with a Warning Event in the Tofu
// Controller's words; the apply stands.
func tc000242(t *testing.T, w *world) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	w.healthCheckModule(addr)
	w.apply(w.healthCheckObject("tf-health-check-bad", v1alpha2.HealthCheck{Name: "tcpTestBadPort", Type: "tcp", Address: "{{.foo}}:81"}))
	w.apply(w.healthCheckObject("tf-health-check-bad2", v1alpha2.HealthCheck{Name: "httpTestBadUrl", Type: "http", URL: "http://" + addr + "/something-else", Timeout: &metav1.Duration{Duration: 5 * time.Second}}))
	w.reconcile()
	for name, event := range map[string]string{
		"tf-health-check-bad":  "TCP health check error: tcpTestBadPort, url: {{.foo}}:81",
		"tf-health-check-bad2": "HTTP health check error: httpTestBadUrl, url: http://" + addr + "/something-else",
	} {
		got := w.get(name)
		if c := condition(got, v1alpha2.ConditionHealthCheck); c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonHealthChecksFailed {
			t.Errorf("Terraform %s HealthCheck = %+v, want False %s", name, c, v1alpha2.ReasonHealthChecksFailed)
		}
		wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
		if evs := w.events(name, v1alpha2.ReasonHealthChecksFailed); len(evs) == 0 || evs[0].Type != corev1.EventTypeWarning || evs[0].Message != event {
			t.Errorf("Terraform %s %s Events = %v, want a Warning %q", name, v1alpha2.ReasonHealthChecksFailed, evs, event)
		}
	}
}

// tc000340: post-planning webhooks, in order: one passes, one refuses
// (Plan and Ready False PostPlanningWebhookFailed, with its rendered
// error message, nothing pending), a disabled one is never called; each
// payload is what its payloadType says.
func tc000340(t *testing.T, w *world) {
	var mu sync.Mutex
	payloads := map[string]map[string]any{}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var p map[string]any
		if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&p) != nil {
			http.Error(rw, "want JSON", http.StatusBadRequest)
			return
		}
		mu.Lock()
		payloads[r.URL.Path] = p
		mu.Unlock()
		switch r.URL.Path {
		case "/terraform/admission/fail":
			io.WriteString(rw, `{"passed": false, "violations": [{"message": "Max nodes count in GCP in terraform helloworld (1 occurrences)"}]}`)
		default:
			io.WriteString(rw, `{"passed": true, "violations": []}`)
		}
	}))
	t.Cleanup(srv.Close)
	tf := w.module("tf-w-webhooks", "hello-world", "0.1.0")
	off := false
	tf.Spec.Webhooks = []v1alpha2.Webhook{
		{Stage: "post-planning", URL: srv.URL + "/terraform/admission/pass", TestExpression: "${{ .passed }}", ErrorMessageTemplate: "SHOULD PASS Violation: ${{ (index .violations 0).message }}"},
		{Stage: "post-planning", URL: srv.URL + "/terraform/admission/spec", PayloadType: "SpecOnly", TestExpression: "${{ .passed }}"},
		{Stage: "post-planning", URL: srv.URL + "/terraform/admission/plan", PayloadType: "PlanOnly", TestExpression: "${{ .passed }}"},
		{Stage: "post-planning", URL: srv.URL + "/terraform/admission/fail", TestExpression: "${{ .passed }}", ErrorMessageTemplate: "SHOULD FAIL Violation: ${{ (index .violations 0).message }}"},
		{Stage: "post-planning", Enabled: &off, URL: "some-invalid-url", TestExpression: "${{ .passed }}", ErrorMessageTemplate: "SHOULD FAIL Violation: ${{ (index .violations 0).message }}"},
	}
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	const refused = "SHOULD FAIL Violation: Max nodes count in GCP in terraform helloworld (1 occurrences)"
	c := condition(got, v1alpha2.ConditionPlan)
	if c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonPostPlanningWebhookFailed || c.Message != refused {
		t.Errorf("Plan = %+v, want False %s %q", c, v1alpha2.ReasonPostPlanningWebhookFailed, refused)
	}
	if r := condition(got, v1alpha2.ConditionReady); r.Status != metav1.ConditionFalse || r.Reason != v1alpha2.ReasonPostPlanningWebhookFailed {
		t.Errorf("Ready = %s, want False %s", ready(got), v1alpha2.ReasonPostPlanningWebhookFailed)
	}
	if got.Status.Plan.Pending != "" || got.Status.Plan.LastApplied != "" {
		t.Errorf("status.plan = %+v, want nothing pending or applied", got.Status.Plan)
	}
	mu.Lock()
	defer mu.Unlock()
	if p := payloads["/terraform/admission/pass"]; p["kind"] != "Terraform" || p["spec"] == nil || p["status"] == nil {
		t.Errorf("SpecAndPlan payload = %v, want the object with status.tfplan", p)
	} else if st, _ := p["status"].(map[string]any); st["tfplan"] == nil || len(st) != 1 {
		t.Errorf("SpecAndPlan payload status = %v, want tfplan alone", st)
	}
	if p := payloads["/terraform/admission/spec"]; p["kind"] != "Terraform" || p["status"] != nil {
		t.Errorf("SpecOnly payload = %v, want the object without status", p)
	}
	if p := payloads["/terraform/admission/plan"]; p["format_version"] == nil || p["kind"] != nil {
		t.Errorf("PlanOnly payload = %v, want the plan alone", p)
	}
}

// tc000111: a customConfiguration s3 backend, locked in DynamoDB, its
// bucket and credentials from a Secret through backendConfigsFrom (a key
// it does not name left out): applied, its output available.
func tc000111(t *testing.T, w *world) {
	endpoint := awstest.Moto(t)
	awstest.Env(t, "test", "test")
	awstest.CreateBucket(t, endpoint, "s3-terraform-state")
	createLockTable(t, endpoint, "terraformlock")
	w.secret("s3-backend-configs", map[string]string{"access_key": "test", "secret_key": "test", "bucket": "s3-terraform-state", "invalid_key": "invalid-key"})
	tf := w.module("helloworld-with-s3-backend-no-outputs", "hello-world", "0.1.0")
	tf.Spec.BackendConfig = &v1alpha2.BackendConfigSpec{CustomConfiguration: `backend "s3" {
  key                         = "dev/terraform.tfstate"
  region                      = "us-east-1"
  endpoint                    = "` + endpoint + `"
  skip_credentials_validation = true
  skip_metadata_api_check     = true
  skip_requesting_account_id  = true
  force_path_style            = true
  dynamodb_table              = "terraformlock"
  dynamodb_endpoint           = "` + endpoint + `"
  encrypt                     = true
}`}
	tf.Spec.BackendConfigsFrom = []v1alpha2.BackendConfigsReference{{Kind: "Secret", Name: "s3-backend-configs", Keys: []string{"access_key", "secret_key", "bucket"}}}
	w.apply(tf)
	w.reconcile()
	got := w.get(tf.Name)
	if c := condition(got, v1alpha2.ConditionApply); c.Reason != v1alpha2.ReasonApplySucceeded {
		t.Fatalf("Apply = %+v, want %s\n%s", c, v1alpha2.ReasonApplySucceeded, w.logs.String())
	}
	wantAvailable(t, got, "hello_world")
	if !awstest.ObjectExists(t, endpoint, "s3-terraform-state", "dev/terraform.tfstate") {
		t.Error("no state object dev/terraform.tfstate in s3-terraform-state")
	}
}

// createLockTable creates the DynamoDB table of an s3 backend's lock in
// moto, through its JSON API (moto takes any signature).
func createLockTable(t *testing.T, endpoint, name string) {
	t.Helper()
	body := `{"TableName": "` + name + `", "AttributeDefinitions": [{"AttributeName": "LockID", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "LockID", "KeyType": "HASH"}], "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}`
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.CreateTable")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("create DynamoDB table %s: %s\n%s", name, resp.Status, b)
	}
}

// tc000260: the runner pod the object's runnerPodTemplate and
// serviceAccountName make: its labels and annotations, image, service
// account, host aliases and env (with POD_NAME and POD_NAMESPACE); it
// runs and applies; its Job is owned by the object, as the Tofu
// Controller's runner pod is.
func tc000260(t *testing.T, w *world) {
	w.c.RunnerAccount(t, w.ns, "helloworld-tf-runner")
	tf := w.module("runner-pod-test", "hello-world", "0.1.0")
	keep := false
	tf.Spec.AlwaysCleanupRunnerPod = &keep
	tf.Spec.ServiceAccountName = "helloworld-tf-runner"
	meta := map[string]string{"company.com/abc": "xyz", "company.com/xyz": "abc"}
	tf.Spec.RunnerPodTemplate.Metadata.Labels, tf.Spec.RunnerPodTemplate.Metadata.Annotations = meta, meta
	pod := &tf.Spec.RunnerPodTemplate.Spec
	pod.Image, pod.ImagePullPolicy = w.c.StrataImage(t), "Never"
	pod.HostAliases = []corev1.HostAlias{{IP: "127.0.0.1", Hostnames: []string{"foo", "bar"}}}
	pod.Env = []corev1.EnvVar{{Name: "TEST_NAME", Value: "TEST_VALUE"}, {Name: "TEST_NAME_2", Value: "TEST_VALUE_2"}}
	w.apply(tf)
	j := w.runnerJob(t)
	got := j.Spec.Template.Spec
	wantCondition(t, w.get(tf.Name), v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	if got.ServiceAccountName != "helloworld-tf-runner" || got.Containers[0].Image != pod.Image {
		t.Errorf("runner pod service account %q, image %q, want helloworld-tf-runner, %s", got.ServiceAccountName, got.Containers[0].Image, pod.Image)
	}
	if diff := cmp.Diff(pod.HostAliases, got.HostAliases); diff != "" {
		t.Errorf("runner pod host aliases (-want +got):\n%s", diff)
	}
	env := map[string]string{}
	for _, e := range got.Containers[0].Env {
		env[e.Name] = e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			env[e.Name] = e.ValueFrom.FieldRef.FieldPath
		}
	}
	for k, v := range map[string]string{"POD_NAME": "metadata.name", "POD_NAMESPACE": "metadata.namespace", "TEST_NAME": "TEST_VALUE", "TEST_NAME_2": "TEST_VALUE_2"} {
		if env[k] != v {
			t.Errorf("runner pod env %s = %q, want %q", k, env[k], v)
		}
	}
	for k, v := range meta {
		if j.Spec.Template.Labels[k] != v || j.Spec.Template.Annotations[k] != v {
			t.Errorf("runner pod labels %v, annotations %v, want %s=%s in both", j.Spec.Template.Labels, j.Spec.Template.Annotations, k, v)
		}
	}
	yes := true
	want := []metav1.OwnerReference{{APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind, Name: tf.Name, UID: w.get(tf.Name).UID, Controller: &yes}}
	if diff := cmp.Diff(want, j.OwnerReferences); diff != "" {
		t.Errorf("runner Job owners (-want +got):\n%s", diff)
	}
	t.Run("env reaches the providers", func(t *testing.T) { tc000260Env(t, w) })
}

// tc000260Env: the spec's envtest cases, run in process: the object's
// runnerPodTemplate.spec.env reaches the providers' processes, a value,
// a secretKeyRef and a configMapKeyRef alike. The spec reads it with an
// external data source and the vault provider; strata_env, of strata's
// test provider from its provider mirror, reads it here, as outputs
// written to a Secret.
func tc000260Env(t *testing.T, w *world) {
	w.withProviderMirror(t)
	const noProxy = "cluster.local,terraform.io,registry.terraform.io,releases.hashicorp.com,registry.opentofu.org,github.com,release-assets.githubusercontent.com"
	w.secret("tf-envvar-valuesfrom-secretref-name", map[string]string{"tf-envvar-valuesfrom-secretref-name-key": "c2VjcmV0LXRva2Vu"})
	w.configMap("tf-envvar-valuefrom-configmapref-name", map[string]string{"tf-envvar-valuefrom-configmapref-name-key": "config-token"})
	tests := []struct {
		name string
		env  []corev1.EnvVar
		want map[string]string
	}{
		{
			name: "tf-envvar-variable-output",
			env: []corev1.EnvVar{
				{Name: "HTTP_PROXY", Value: "http://runner_pod_test_env_vars_proxy_output:1234"},
				{Name: "HTTPS_PROXY", Value: "http://runner_pod_test_env_vars_proxy_output:1234"},
				{Name: "NO_PROXY", Value: noProxy},
			},
			want: map[string]string{"http_proxy": "http://runner_pod_test_env_vars_proxy_output:1234", "https_proxy": "http://runner_pod_test_env_vars_proxy_output:1234", "no_proxy": noProxy},
		},
		{
			name: "tf-envvar-provider-vars-with-value",
			env:  []corev1.EnvVar{{Name: "VAULT_TOKEN", Value: "token"}},
			want: map[string]string{"vault_token": "token"},
		},
		{
			name: "tf-envvar-valuesfrom-secretref",
			env: []corev1.EnvVar{{Name: "VAULT_TOKEN", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: "tf-envvar-valuesfrom-secretref-name"}, Key: "tf-envvar-valuesfrom-secretref-name-key",
			}}}},
			want: map[string]string{"vault_token": "c2VjcmV0LXRva2Vu"},
		},
		{
			name: "tf-envvar-valuefrom-configmapref",
			env: []corev1.EnvVar{{Name: "VAULT_TOKEN", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: "tf-envvar-valuefrom-configmapref-name"}, Key: "tf-envvar-valuefrom-configmapref-name-key",
			}}}},
			want: map[string]string{"vault_token": "config-token"},
		},
	}
	for _, tt := range tests {
		tf := w.module(tt.name, "env-output", "0.1.0")
		tf.Spec.RunnerPodTemplate.Spec.Env = tt.env
		tf.Spec.WriteOutputsToSecret = &v1alpha2.WriteOutputsToSecretSpec{Name: tt.name + "-secret"}
		w.apply(tf)
	}
	w.reconcile()
	for _, tt := range tests {
		wantCondition(t, w.get(tt.name), v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "")
		want := map[string]string{"http_proxy": "", "https_proxy": "", "no_proxy": "", "vault_token": ""}
		maps.Copy(want, tt.want)
		w.wantOutputs(tt.name+"-secret", tt.name, want)
	}
}

// lockID is the foreign lock tc000290 leaves on the state's Lease.
const lockID = "f2ab685b-f84d-ac0b-a125-378a22877e8d"

// tc000290 runs the three force-unlock specs: an applied object whose
// kubernetes backend Lease another holder then takes reports StateLocked
// True LockHeld with the lock in status.lock.pending at its next plan;
// forceUnlock: yes with that lockIdentifier, or forceUnlock: auto,
// releases it (StateLocked False ForceUnlock) and the plan runs again.
// Every pass plans here, as the Tofu Controller's every interval does.
func tc000290(t *testing.T, w *world) {
	p := w.cfg.Pipeline.(reconcile.Pipeline)
	p.Options.DriftInterval = 0
	w.cfg.Pipeline = p
	w.ctrl = controller.New(w.cfg)
	for _, tt := range []struct {
		// forceUnlock is spec.tfstate.forceUnlock; auto is set from the
		// start, and releases the lock the pass before reported held.
		name, forceUnlock string
	}{
		{name: "tf-force-unlock-lock-identifier"},
		{name: "tf-force-unlock-yes-unlock-test", forceUnlock: "yes"},
		{name: "tf-force-unlock-auto-unlock-test", forceUnlock: "auto"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tf := w.configMapStack(tt.name)
			tf.Spec.BackendConfig = &v1alpha2.BackendConfigSpec{SecretSuffix: tt.name, ConfigPath: w.c.Kubeconfig}
			if tt.forceUnlock == "auto" {
				tf.Spec.TFState = &v1alpha2.TFStateSpec{ForceUnlock: "auto"}
			}
			w.apply(tf)
			w.reconcile()
			got := w.get(tt.name)
			wantCondition(t, got, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
			wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
			w.wantPlanSecret(tt.name, got.Status.Plan.LastApplied)
			w.takeLease("lock-tfstate-default-"+tt.name, lockID)

			w.reconcile()
			got = w.get(tt.name)
			held := condition(got, v1alpha2.ConditionStateLocked)
			if held.Status != metav1.ConditionTrue || held.Reason != v1alpha2.ReasonLockHeld || held.Message != "Terraform Locked with Lock Identifier: "+lockID {
				t.Fatalf("StateLocked after the lock was taken = %+v, want True %s naming %s", held, v1alpha2.ReasonLockHeld, lockID)
			}
			if got.Status.Lock.Pending != lockID {
				t.Errorf("status.lock.pending = %q, want %q", got.Status.Lock.Pending, lockID)
			}
			if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonLockHeld {
				t.Errorf("Ready = %s, want False %s", ready(got), v1alpha2.ReasonLockHeld)
			}
			if tt.forceUnlock == "" {
				// Nothing releases it: the next pass reports it again.
				w.reconcile()
				if c := condition(w.get(tt.name), v1alpha2.ConditionStateLocked); c.Reason != v1alpha2.ReasonLockHeld {
					t.Errorf("StateLocked a pass later = %+v, want still %s", c, v1alpha2.ReasonLockHeld)
				}
				return
			}
			if tt.forceUnlock == "yes" {
				w.edit(tt.name, func(s *v1alpha2.TerraformSpec) {
					s.TFState = &v1alpha2.TFStateSpec{ForceUnlock: "yes", LockIdentifier: lockID}
				})
			}
			w.reconcile()
			got = w.get(tt.name)
			wantCondition(t, got, v1alpha2.ConditionStateLocked, v1alpha2.ReasonForceUnlock, "Terraform Force Unlock with Lock Identifier: "+lockID)
			if c := condition(got, v1alpha2.ConditionStateLocked); c.Status != metav1.ConditionFalse {
				t.Errorf("StateLocked after the release = %+v, want False", c)
			}
			if got.Status.Lock.Pending != "" || got.Status.Lock.LastApplied != lockID {
				t.Errorf("status.lock after the release = %+v, want nothing pending and %s last applied", got.Status.Lock, lockID)
			}
			if tt.forceUnlock == "yes" && (got.Spec.TFState == nil || got.Spec.TFState.ForceUnlock != "yes" || got.Spec.TFState.LockIdentifier != lockID) {
				t.Errorf("spec.tfstate = %+v, want forceUnlock yes and the lock's ID", got.Spec.TFState)
			}
			if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue {
				t.Errorf("Ready after the release = %s, want True: the plan ran", ready(got))
			}
			// The pass after that meets no lock: the condition goes.
			w.reconcile()
			got = w.get(tt.name)
			if c := condition(got, v1alpha2.ConditionStateLocked); c.Type != "" || got.Status.Lock != (v1alpha2.LockStatus{}) {
				t.Errorf("StateLocked a pass after the release = %+v, status.lock %+v, want neither", c, got.Status.Lock)
			}
		})
	}
}

// takeLease marks the kubernetes backend's lock Lease as held by another
// tofu with lock ID id, as the spec fakes a stuck lock.
func (w *world) takeLease(name, id string) {
	w.t.Helper()
	info := fmt.Sprintf(`{"ID": %q,"Operation": "OperationTypeApply", "Info": "", "Who":"someone-else", "Version": "1.2.7", "Created": "2022-08-17T15:44:07.0Z", "Path": ""}`, id)
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"annotations": map[string]string{"app.terraform.io/lock-info": info}},
		"spec":     map[string]any{"holderIdentity": id},
	})
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.c.Client.CoordinationV1().Leases(w.ns).Patch(context.Background(), name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		w.t.Fatalf("take Lease %s: %v", name, err)
	}
}

// tc000011BadTarGz: a GitRepository whose artifact is not a gzipped tar
// (a text file, as the spec's bad.tar.gz: a byte-order mark and a run of
// "a"), its digest right: the object is Ready False ArtifactFailed, with
// the untar error, its only condition, and nothing runs. The
// GitRepository is suspended, its status written here as source-controller
// would write it, its artifact served by the test.
func tc000011BadTarGz(t *testing.T, w *world) {
	bad := []byte("\uFEFF" + strings.Repeat("a", 129) + "\n")
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) { _, _ = rw.Write(bad) }))
	t.Cleanup(srv.Close)
	const revision = "master/b8e362c206e3d0cbb7ed22ced771a0056455a2fb"
	gitRepositories := schema.GroupVersionResource{Group: "source.toolkit.fluxcd.io", Version: "v1", Resource: "gitrepositories"}
	repo := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "GitRepository",
		"metadata": map[string]any{"name": "test-tf-controller-bad-tar-gz-no-output", "namespace": w.ns},
		"spec": map[string]any{
			"url": "https://github.com/stefanprodan/podinfo", "interval": "30s", "suspend": true,
			"ref": map[string]any{"branch": "master"},
		},
	}}
	created, err := w.dyn.Resource(gitRepositories).Namespace(w.ns).Create(context.Background(), repo, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(bad)
	created.Object["status"] = map[string]any{
		"observedGeneration": int64(1),
		"conditions": []any{map[string]any{
			"type": "Ready", "status": "True", "reason": "GitOperationSucceed", "message": "Fetched revision: " + revision,
			"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
		}},
		"artifact": map[string]any{
			"path": "gitrepository/flux-system/test-tf-controller/b8e362c206e3d0cbb7ed22ced771a0056455a2fb.tar.gz",
			"url":  srv.URL + "/bad.tar.gz", "revision": revision, "digest": "sha256:" + hex.EncodeToString(sum[:]),
			"lastUpdateTime": time.Now().UTC().Format(time.RFC3339),
		},
	}
	if _, err := w.dyn.Resource(gitRepositories).Namespace(w.ns).UpdateStatus(context.Background(), created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "bad-tar-gz-no-outputs"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./terraform-hello-world-example", Interval: metav1.Duration{Duration: 10 * time.Second},
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "GitRepository", Name: "test-tf-controller-bad-tar-gz-no-output", Namespace: w.ns},
		},
	})
	w.reconcile()
	got := w.get("bad-tar-gz-no-outputs")
	if len(got.Status.Conditions) != 1 {
		t.Errorf("conditions = %+v, want Ready alone", got.Status.Conditions)
	}
	c := condition(got, v1alpha2.ConditionReady)
	if c.Status != metav1.ConditionFalse || c.Reason != v1alpha2.ReasonArtifactFailed || !strings.Contains(c.Message, "gzip: invalid header") {
		t.Errorf("Ready = %s, want False %s with the untar error (gzip: invalid header)", ready(got), v1alpha2.ReasonArtifactFailed)
	}
	if n := w.executed.Load(); n != 0 {
		t.Errorf("runs executed = %d, want none", n)
	}
}

// withProviderMirror serves strata's test provider (strata-iac/strata)
// from a provider mirror of strata's, and makes the world's controller
// install providers from it, as a cluster without the public registry
// does.
func (w *world) withProviderMirror(t *testing.T) {
	t.Helper()
	srv := providermirror.Serve(t, "0.1.0")
	p := w.cfg.Pipeline.(reconcile.Pipeline)
	p.Options.ProviderMirror, p.Options.ProviderMirrorCA = srv.URL, srv.Certs.CAFile
	w.cfg.Pipeline = p
	w.ctrl = controller.New(w.cfg)
}

// tc000052: a manual-mode object whose plan writes a file (an archive,
// as archive_file writes it while planning) that the apply reads again
// (filemd5): planned and held, then approved in a later pass, it applies,
// and its output etag is available. The module's provider comes from
// strata's provider mirror.
func tc000052(t *testing.T, w *world) {
	w.withProviderMirror(t)
	const name = "tf-plan-and-manual-approve-with-files"
	tf := w.module(name, "data-archive", "0.1.0")
	tf.Spec.ApprovePlan = ""
	tf.Spec.RefreshBeforeApply = true
	tf.Spec.Interval = metav1.Duration{Duration: 10 * time.Second}
	tf.Spec.Vars = varsOf(t, "config_name", "cm-"+name)
	w.apply(tf)
	w.reconcile()
	got := w.get(name)
	id := pending(t, got)
	wantCondition(t, got, v1alpha2.ConditionPlan, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
	wantCondition(t, got, v1alpha2.ConditionReady, v1alpha2.ReasonPlannedWithChanges, `Plan generated: set approvePlan: "`+id+`" to approve this plan.`)
	w.wantPlanSecret(name, id)
	got = w.approveAndApply(name, id)
	if diff := cmp.Diff([]string{"etag"}, got.Status.AvailableOutputs); diff != "" {
		t.Errorf("status.availableOutputs mismatch (-want +got):\n%s", diff)
	}
}
