//go:build k8s

package controller_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

func jsonValue(t *testing.T, s string) *apiextensionsv1.JSON {
	t.Helper()
	return &apiextensionsv1.JSON{Raw: []byte(s)}
}

// Test 1 and 2 of issue 14: the demo's account and network stacks, and a
// service reading the network's output Secret through varsFrom, as
// Terraform objects, their code in OCIRepositories of a real registry
// fetched by a real source-controller, reconciled by a real `strata
// controller` process (its watch loop) whose runs are runner Jobs that run
// tofu, applied in graph order; their outputs in real Secrets with the
// Tofu Controller's keys; status as the Tofu Controller writes it; then
// passes with nothing changed start no Job at all.
func TestEnvironmentInCluster(t *testing.T) {
	w := newWorld(t)
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	jw := watchJobs(t, w)
	w.push("account", "../../flux-apps/platform-stacks/account/terraform", "0.1.0")
	w.push("network", "../../flux-apps/platform-stacks/network/terraform", "0.1.0")
	vars := func(kv ...string) []v1alpha2.Variable {
		var out []v1alpha2.Variable
		for i := 0; i < len(kv); i += 2 {
			out = append(out, v1alpha2.Variable{Name: kv[i], Value: jsonValue(t, kv[i+1])})
		}
		return out
	}
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "account", Annotations: map[string]string{"strata.dev/layer": "account"}},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef:            v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "account"},
			Vars:                 vars("client_id", `"acme"`, "environment", `"dev"`, "environment_class", `"non-prod"`, "region", `"eu-west-1"`, "domain", `"dev.acme.example"`),
			WriteOutputsToSecret: &v1alpha2.WriteOutputsToSecretSpec{Name: "account-outputs", Labels: map[string]string{"team": "platform"}},
		},
	})
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "network", Annotations: map[string]string{"strata.dev/layer": "network"}},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef:             v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "network"},
			Vars:                  vars("name", `"acme-dev"`, "cidr", `"10.0.0.0/16"`, "subnet_count", `2`),
			WriteOutputsToSecret:  &v1alpha2.WriteOutputsToSecretSpec{Name: "network-outputs"},
			ReadInputsFromSecrets: []v1alpha2.ReadInputsFromSecretSpec{{Name: "account-outputs", As: "account"}},
		},
	})
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "app"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef:            v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "app"},
			VarsFrom:             []v1alpha2.VarsReference{{Kind: "Secret", Name: "network-outputs", VarsKeys: []string{"vpc_id", "subnet_ids"}}},
			WriteOutputsToSecret: &v1alpha2.WriteOutputsToSecretSpec{Name: "app-outputs"},
		},
	})
	w.push("app", "testdata/app", "0.1.0")
	w.push("typed", "testdata/typed", "0.1.0")
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "typed"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "typed"},
			WriteOutputsToSecret: &v1alpha2.WriteOutputsToSecretSpec{
				Name: "typed-outputs", Outputs: []string{"name", "size:replicas", "zones", "tags:labels"},
			},
		},
	})
	r := startController(t, w, "--leader-elect-namespace", w.ns, "--leader-elect-name", "strata-env")
	for _, name := range []string{"account", "network", "app", "typed"} {
		waitFor(t, 5*time.Minute, "Terraform "+name+" Ready", func() (bool, error) {
			return strings.HasPrefix(ready(w.get(name)), "True "), nil
		})
	}

	ctx := context.Background()
	for _, tt := range []struct {
		name, secret string
		keys         []string // availableOutputs
		secretKeys   []string
	}{
		{"account", "account-outputs", []string{"account_id", "admin_token", "domain", "region"}, []string{"account_id", "admin_token", "domain", "region"}},
		{"network", "network-outputs", []string{"cidr", "subnet_ids", "vpc_id"}, []string{"cidr", "subnet_ids", "subnet_ids__type", "vpc_id"}},
		{"app", "app-outputs", []string{"placed_in"}, []string{"placed_in"}},
		{"typed", "typed-outputs", []string{"labels", "name", "replicas", "zones"}, []string{"labels", "labels__type", "name", "replicas", "replicas__type", "zones", "zones__type"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tf := w.get(tt.name)
			if got := ready(tf); !strings.HasPrefix(got, "True TerraformOutputsWritten: Outputs written: 0.1.0@sha256:") {
				t.Errorf("Terraform %s Ready = %q, want True TerraformOutputsWritten on revision 0.1.0@sha256:…", tt.name, got)
			}
			if c := condition(tf, v1alpha2.ConditionApply); c.Reason != v1alpha2.ReasonApplySucceeded || c.Status != metav1.ConditionTrue {
				t.Errorf("Terraform %s Apply condition = %s %s, want True %s", tt.name, c.Status, c.Reason, v1alpha2.ReasonApplySucceeded)
			}
			if c := condition(tf, v1alpha2.ConditionPlan); c.Reason != v1alpha2.ReasonPlannedWithChanges {
				t.Errorf("Terraform %s Plan condition reason = %s, want %s", tt.name, c.Reason, v1alpha2.ReasonPlannedWithChanges)
			}
			st := tf.Status
			if !strings.HasPrefix(st.LastAppliedRevision, "0.1.0@sha256:") || st.LastAppliedRevision != st.LastPlannedRevision || st.LastAppliedRevision != st.LastAttemptedRevision {
				t.Errorf("Terraform %s revisions applied/planned/attempted = %q/%q/%q, want the artifact's, all three", tt.name, st.LastAppliedRevision, st.LastPlannedRevision, st.LastAttemptedRevision)
			}
			if !strings.HasPrefix(st.Plan.LastApplied, "plan-") || st.Plan.Pending != "" {
				t.Errorf("Terraform %s status.plan = %+v, want lastApplied a plan id and nothing pending", tt.name, st.Plan)
			}
			if !slices.Equal(st.AvailableOutputs, tt.keys) {
				t.Errorf("Terraform %s availableOutputs = %v, want %v", tt.name, st.AvailableOutputs, tt.keys)
			}
			if !slices.Contains(tf.Finalizers, v1alpha2.Finalizer) {
				t.Errorf("Terraform %s finalizers = %v, want %s", tt.name, tf.Finalizers, v1alpha2.Finalizer)
			}
			sec, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, tt.secret, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("output Secret %s: %v", tt.secret, err)
			}
			var keys []string
			for k := range sec.Data {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if !slices.Equal(keys, tt.secretKeys) {
				t.Errorf("Secret %s keys = %v, want %v", tt.secret, keys, tt.secretKeys)
			}
			if len(sec.OwnerReferences) != 1 || sec.OwnerReferences[0].Kind != "Terraform" || sec.OwnerReferences[0].Name != tt.name {
				t.Errorf("Secret %s owners = %+v, want Terraform %s", tt.secret, sec.OwnerReferences, tt.name)
			}
		})
	}
	acc, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, "account-outputs", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(acc.Data["region"]); got != "eu-west-1" {
		t.Errorf("Secret account-outputs region = %q, want the output's text eu-west-1", got)
	}
	if acc.Labels["team"] != "platform" {
		t.Errorf("Secret account-outputs labels = %v, want writeOutputsToSecret.labels", acc.Labels)
	}
	net, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, "network-outputs", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(net.Data["subnet_ids"]); !strings.HasPrefix(got, "[\n      \"subnet-") {
		t.Errorf("Secret network-outputs subnet_ids = %q, want the list as tofu prints it", got)
	}
	typed, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, "typed-outputs", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for k, v := range typed.Data {
		got[k] = string(v)
	}
	want := tcSecret(t, "testdata/typed", map[string]string{"name": "name", "size": "replicas", "zones": "zones", "tags": "labels"})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Secret typed-outputs data mismatch with what the Tofu Controller writes for `tofu output -json` (-want +got):\n%s", diff)
	}
	app, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, "app-outputs", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(app.Data["placed_in"]), string(net.Data["vpc_id"]); got != want || want == "" {
		t.Errorf("Secret app-outputs placed_in = %q, want the network's vpc_id %q, read through varsFrom", got, want)
	}
	events, err := w.c.Client.CoreV1().Events(w.ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.kind=Terraform,involvedObject.name=network"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(events.Items, func(e corev1.Event) bool { return e.Reason == v1alpha2.ReasonOutputsWritten }) {
		t.Errorf("events of Terraform network = %v, want one %s", events.Items, v1alpha2.ReasonOutputsWritten)
	}

	t.Run("passes with nothing changed start no job", func(t *testing.T) {
		created := jw.Created()
		if len(created) != 4 {
			t.Errorf("runner jobs created by the first pass = %v, want one for each of the 4 stacks", created)
		}
		// The controller passes again on its interval and on the status
		// writes it watches; each finds every stack up to date.
		from := len(r.out.String())
		waitFor(t, 2*time.Minute, "a pass that finds every stack up to date", func() (bool, error) {
			return upToDate(r.out.String()[from:], "account", "network", "app", "typed"), nil
		})
		if got := jw.Created(); len(got) != len(created) {
			t.Errorf("runner jobs created by passes with nothing changed = %v, want none", got[len(created):])
		}
		if got := ready(w.get("network")); !strings.HasPrefix(got, "True ") {
			t.Errorf("Terraform network Ready after the no-op pass = %q, want True", got)
		}
	})
}

// upToDate reports whether log (the seed's format: "INFO [stack] up to
// date: …") says, for each stack, that skip-unchanged found it up to date
// and answered it without a run.
func upToDate(log string, stacks ...string) bool {
	for _, s := range stacks {
		found := false
		for _, line := range strings.Split(log, "\n") {
			if strings.Contains(line, "["+s+"] up to date: ") {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
