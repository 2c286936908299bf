//go:build k8s

package controller_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// The Tofu Controller's plan id and revision of what it applied, as it
// writes them for a GitRepository revision.
const (
	tcRevision = "master/b8e362c206e3d0cbb7ed22ced771a0056455a2fb"
	tcPlanID   = "plan-master-b8e362c206"
)

// TestTakeOverInCluster: strata controller takes over a namespace the
// Tofu Controller ran, and re-creates nothing. The namespace holds what
// the Tofu Controller leaves: its finalizer on each object; each object's
// state in its kubernetes backend Secret (tfstate-default-<name>, or the
// backendConfig's secretSuffix) and the released lock Lease beside it,
// written by real tofu as its runner writes them; an output
// Secret with its "__type" keys, as it writes them from `tofu output
// -json`; its status; and, for an object in manual mode with a change
// waiting, its pending plan (status.plan.pending and the Secret
// tfplan-default-<name>), which the user approved by the Tofu
// Controller's id just before the swap.
//
// strata, its runs as runner Jobs, plans each on that state: the applied
// ones plan no change, so nothing is applied, their resources keep their
// ids and the state its serial, and the output Secret keeps its keys and
// values. The one with a change waiting is planned again with strata's
// plan id, held (its approvePlan names the Tofu Controller's plan, which
// approves nothing), and a Warning Event and the Ready message name the
// id to approve; nothing of it is applied until then.
func TestTakeOverInCluster(t *testing.T) {
	w := newWorld(t)
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	w.push("takeover", "testdata/takeover", "1.0.0")

	objects := []struct {
		name, suffix, size, specSize string
		manual                       bool
	}{
		// Applied with the Tofu Controller's default backend.
		{name: "network", size: "small", specSize: "small"},
		// Applied with a backendConfig.secretSuffix of its own.
		{name: "cluster", suffix: "eks-main", size: "large", specSize: "large"},
		// Manual, applied with small; large is planned and pending.
		{name: "database", size: "small", specSize: "large", manual: true},
	}
	type left struct {
		state   string
		serial  uint64
		id      string
		outputs map[string][]byte
		// version and conditions are the object's as left.
		version    string
		conditions []metav1.Condition
	}
	before := map[string]left{}
	for _, o := range objects {
		suffix := o.suffix
		if suffix == "" {
			suffix = o.name
		}
		state := "tfstate-default-" + suffix
		outputs := tofuControllerApply(t, w, suffix, o.size)
		serial, id := w.stateOf(state)
		tf := &v1alpha2.Terraform{
			// The Tofu Controller's finalizer, which is strata's too.
			ObjectMeta: metav1.ObjectMeta{Name: o.name, Finalizers: []string{v1alpha2.Finalizer}},
			Spec: v1alpha2.TerraformSpec{
				ApprovePlan: v1alpha2.ApprovePlanAuto, Path: "./",
				SourceRef:            v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "takeover"},
				Vars:                 []v1alpha2.Variable{{Name: "size", Value: jsonValue(t, `"`+o.specSize+`"`)}},
				WriteOutputsToSecret: &v1alpha2.WriteOutputsToSecretSpec{Name: o.name + "-outputs"},
			},
		}
		if o.suffix != "" {
			tf.Spec.BackendConfig = &v1alpha2.BackendConfigSpec{SecretSuffix: o.suffix, InClusterConfig: true}
		}
		if o.manual {
			tf.Spec.ApprovePlan = tcPlanID
		}
		w.apply(tf)
		got := w.get(o.name)
		// The Tofu Controller's output Secret, owned by its object.
		if _, err := w.c.Client.CoreV1().Secrets(w.ns).Create(context.Background(), &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: o.name + "-outputs", OwnerReferences: []metav1.OwnerReference{{
				APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind, Name: o.name, UID: got.UID,
			}}},
			Type: corev1.SecretTypeOpaque, Data: outputs,
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		status := v1alpha2.TerraformStatus{
			ObservedGeneration: got.Generation, LastAppliedRevision: tcRevision, LastAttemptedRevision: tcRevision, LastPlannedRevision: tcRevision,
			Plan:             v1alpha2.PlanStatus{LastApplied: tcPlanID},
			AvailableOutputs: []string{"size", "spec"},
			Conditions: []metav1.Condition{
				{Type: "Ready", Status: "True", Reason: v1alpha2.ReasonOutputsWritten, Message: "Outputs written: " + tcRevision, LastTransitionTime: metav1.Now()},
				{Type: "Apply", Status: "True", Reason: v1alpha2.ReasonApplySucceeded, Message: "Applied successfully", LastTransitionTime: metav1.Now()},
			},
		}
		if o.manual {
			status.Plan = v1alpha2.PlanStatus{Pending: tcPlanID}
			// Its plan Secret, left without an owner (as a person's copy
			// or a restore from a backup would be): strata's plan takes it
			// over, owner included.
			status.Conditions[0] = metav1.Condition{Type: "Ready", Status: "Unknown", Reason: v1alpha2.ReasonPlannedWithChanges,
				Message: `Plan generated: set approvePlan: "` + tcPlanID + `" to approve this plan.`, LastTransitionTime: metav1.Now()}
			if _, err := w.c.Client.CoreV1().Secrets(w.ns).Create(context.Background(), &corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Name: "tfplan-default-" + o.name, Annotations: map[string]string{"savedPlan": tcPlanID, "encoding": "gzip"}},
				Type:       corev1.SecretTypeOpaque, Data: map[string][]byte{"tfplan": []byte("the Tofu Controller's plan")},
			}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		got.Status = status
		w.writeStatus(got)
		got = w.get(o.name)
		before[o.name] = left{state: state, serial: serial, id: id, outputs: outputs, version: got.ResourceVersion, conditions: got.Status.Conditions}
	}

	// Before the swap, strata controller check says what would differ,
	// changing nothing: the pending plan that cannot carry over, and an
	// applied object whose state Secret is not there (deleted before the
	// swap: it stands for a backendConfig that names another Secret).
	lost := &v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "lost"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "plan-master-b8e362c206", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "takeover"},
			Vars:      []v1alpha2.Variable{{Name: "size", Value: jsonValue(t, `"small"`)}},
		},
	}
	w.apply(lost)
	lostObj := w.get("lost")
	lostObj.Status = v1alpha2.TerraformStatus{LastAppliedRevision: tcRevision, Plan: v1alpha2.PlanStatus{LastApplied: tcPlanID}}
	w.writeStatus(lostObj)
	check := exec.Command(k8stest.StrataBinaries(t).Kube, "controller", "check", "--kubeconfig", w.c.Kubeconfig, "--namespace", w.ns)
	out, err := check.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("strata controller check = %v, want exit code 1 (objects need attention):\n%s", err, out)
	}
	for _, want := range []string{
		"4 Terraform objects, 2 need attention before the swap",
		"database  ! its pending plan " + tcPlanID + " is the Tofu Controller's",
		"lost      ! its state Secret tfstate-default-lost is not in the namespace, though it was applied",
		"network     approvePlan is auto",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("strata controller check lacks %q:\n%s", want, out)
		}
	}
	for _, o := range objects {
		if tf := w.get(o.name); !cmp.Equal(tf.Status.Conditions, before[o.name].conditions) || tf.ResourceVersion != before[o.name].version {
			t.Errorf("%s changed by strata controller check: resourceVersion %s, want %s", o.name, tf.ResourceVersion, before[o.name].version)
		}
	}
	w.delete("lost")

	startController(t, w, "--leader-elect-namespace", w.ns, "--leader-elect-name", "strata-takeover")
	var pendingID string
	waitFor(t, 3*runBudget, "every object planned by strata", func() (bool, error) {
		for _, o := range objects {
			tf := w.get(o.name)
			if o.manual {
				pendingID = tf.Status.Plan.Pending
				if pendingID == tcPlanID || !strings.HasPrefix(pendingID, "plan-") {
					return false, nil
				}
				continue
			}
			if tf.Status.LastAttemptedRevision == tcRevision || !strings.HasPrefix(ready(tf), "True ") {
				return false, nil
			}
		}
		return true, nil
	})
	for _, o := range objects {
		b := before[o.name]
		serial, id := w.stateOf(b.state)
		if id != b.id || serial != b.serial {
			t.Errorf("%s: state after the take-over has terraform_data.disk %s at serial %d, want %s at %d: nothing re-created, nothing applied",
				o.name, id, serial, b.id, b.serial)
		}
		if o.manual {
			continue
		}
		tf := w.get(o.name)
		if c := condition(tf, v1alpha2.ConditionPlan); c.Reason != v1alpha2.ReasonPlannedNoChanges {
			t.Errorf("%s: Plan = %+v, want %s: the state the Tofu Controller left is up to date", o.name, c, v1alpha2.ReasonPlannedNoChanges)
		}
		if diff := cmp.Diff(b.outputs, w.getSecret(o.name+"-outputs").Data); diff != "" {
			t.Errorf("%s: the output Secret after the take-over differs from the Tofu Controller's (-tc +strata):\n%s", o.name, diff)
		}
	}

	db := w.get("database")
	if msg := condition(db, v1alpha2.ConditionReady).Message; !strings.Contains(msg, `set approvePlan: "`+pendingID+`"`) || !strings.Contains(msg, tcPlanID) {
		t.Errorf("database Ready message = %q, want it to name strata's plan %s and say %s approves nothing", msg, pendingID, tcPlanID)
	}
	w.wantPlanSecret("database", pendingID)
	waitFor(t, runBudget, "the Warning Event that names the plan to approve", func() (bool, error) {
		for _, e := range w.events("database", controller.ReasonApprovalFailed) {
			if strings.Contains(e.Message, tcPlanID) && strings.Contains(e.Message, pendingID) {
				return true, nil
			}
		}
		return false, nil
	})

	// Approved by strata's id, the change applies, on the same resource.
	w.edit("database", func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = pendingID })
	waitFor(t, 2*runBudget, "database applied once its plan is approved", func() (bool, error) {
		return w.get("database").Status.Plan.LastApplied == pendingID, nil
	})
	if _, id := w.stateOf(before["database"].state); id != before["database"].id {
		t.Errorf("database: terraform_data.disk is %s after the approved change, want %s: an update in place", id, before["database"].id)
	}
}

// tofuControllerApply applies the takeover module with real tofu as the
// Tofu Controller's runner does: its kubernetes backend, the state in
// tfstate-default-<suffix> of the world's namespace. It returns the output
// Secret data the Tofu Controller writes from `tofu output -json`: a
// string output as its text, any other as its JSON value beside its JSON
// type under "<name>__type", each as tofu prints it.
func tofuControllerApply(t *testing.T, w *world, suffix, size string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/takeover/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	backend := `terraform {
  backend "kubernetes" {
    secret_suffix     = "` + suffix + `"
    namespace         = "` + w.ns + `"
    config_path       = "` + w.c.Kubeconfig + `"
    in_cluster_config = false
  }
}
`
	for name, data := range map[string]string{"main.tf": string(src), "backend_override.tf": backend} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tofu := func(args ...string) []byte {
		cmd := exec.Command(tofutest.Binary(t), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1", "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tofu %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
		}
		return out
	}
	tofu("init", "-input=false", "-no-color")
	tofu("apply", "-auto-approve", "-input=false", "-no-color", "-var", "size="+size)
	var outputs map[string]struct {
		Type  json.RawMessage `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(tofu("output", "-json"), &outputs); err != nil {
		t.Fatal(err)
	}
	data := map[string][]byte{}
	for k, o := range outputs {
		var s string
		if json.Unmarshal(o.Type, &s) == nil && s == "string" {
			if err := json.Unmarshal(o.Value, &s); err != nil {
				t.Fatal(err)
			}
			data[k] = []byte(s)
			continue
		}
		data[k], data[k+"__type"] = o.Value, o.Type
	}
	return data
}

// stateOf reads a kubernetes backend state Secret: the state's serial and
// the id of terraform_data.disk.
func (w *world) stateOf(secret string) (uint64, string) {
	w.t.Helper()
	var state struct {
		Serial    uint64 `json:"serial"`
		Resources []struct {
			Type, Name string
			Instances  []struct {
				Attributes struct {
					ID string `json:"id"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(w.state(secret), &state); err != nil {
		w.t.Fatalf("state Secret %s: %v", secret, err)
	}
	for _, r := range state.Resources {
		if r.Type == "terraform_data" && r.Name == "disk" && len(r.Instances) == 1 {
			return state.Serial, r.Instances[0].Attributes.ID
		}
	}
	w.t.Fatalf("state Secret %s has no terraform_data.disk", secret)
	return 0, ""
}

// writeStatus writes a Terraform object's status, as the controller that
// ran it left it.
func (w *world) writeStatus(tf *v1alpha2.Terraform) {
	w.t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(tf)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.dyn.Resource(terraforms).Namespace(w.ns).UpdateStatus(context.Background(), &unstructured.Unstructured{Object: m}, metav1.UpdateOptions{}); err != nil {
		w.t.Fatalf("write the status of Terraform %s: %v", tf.Name, err)
	}
}
