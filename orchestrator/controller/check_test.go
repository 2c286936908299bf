package controller

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/statefile"
)

func TestFindings(t *testing.T) {
	applied := v1alpha2.TerraformStatus{LastAppliedRevision: "master/b8e362c206e3d0cbb7ed22ced771a0056455a2fb", Plan: v1alpha2.PlanStatus{LastApplied: "plan-master-b8e362c206"}}
	object := func(change func(*v1alpha2.Terraform)) *v1alpha2.Terraform {
		tf := &v1alpha2.Terraform{ObjectMeta: metav1.ObjectMeta{Name: "app"}, Status: applied}
		if change != nil {
			change(tf)
		}
		return tf
	}
	tests := []struct {
		name string
		in   checked
		// want are the findings' words, "!" first for one that needs
		// attention; none when nothing differs.
		want []string
	}{
		{
			name: "applied, its state in place",
			in:   checked{tf: object(nil), state: "tfstate-default-app", secrets: map[string]bool{"tfstate-default-app": true}},
		},
		{
			name: "applied, its state Secret missing",
			in:   checked{tf: object(nil), state: "tfstate-default-app", secrets: map[string]bool{}},
			want: []string{"!its state Secret tfstate-default-app is not in the namespace"},
		},
		{
			name: "in process, the Tofu Controller's state in its Secret",
			in:   checked{tf: object(nil), secrets: map[string]bool{"tfstate-default-app": true}},
			want: []string{"!its state is in the Secret tfstate-default-app, where the Tofu Controller keeps it, but with --runners in-process"},
		},
		{
			name: "never applied",
			in:   checked{tf: object(func(tf *v1alpha2.Terraform) { tf.Status = v1alpha2.TerraformStatus{} }), state: "tfstate-default-app", secrets: map[string]bool{}},
			want: []string{"has no state yet"},
		},
		{
			name: "the state is locked",
			in: checked{tf: object(nil), state: "tfstate-default-app", secrets: map[string]bool{"tfstate-default-app": true},
				lock: &statefile.Lock{ID: "f2ab685b", Who: "runner@tf-runner", Created: time.Now(), Held: true}},
			want: []string{"!its state is locked (lock f2ab685b"},
		},
		{
			name: "the Tofu Controller's pending plan, approved by its id",
			in: checked{tf: object(func(tf *v1alpha2.Terraform) {
				tf.Status.Plan.Pending, tf.Spec.ApprovePlan = "plan-master-c0ffee1234", "plan-master-c0ffee1234"
			})},
			want: []string{"!its pending plan plan-master-c0ffee1234 is the Tofu Controller's", `spec.approvePlan "plan-master-c0ffee1234" is not a strata plan id`},
		},
		{
			name: "a strata plan pending",
			in:   checked{tf: object(func(tf *v1alpha2.Terraform) { tf.Status.Plan.Pending = "plan-0123456789ab" })},
		},
		{
			name: "the approval left in the spec after its apply",
			in:   checked{tf: object(func(tf *v1alpha2.Terraform) { tf.Spec.ApprovePlan = "plan-master-b8e362c206" })},
		},
		{
			name: "auto, with the default policy",
			in:   checked{tf: object(func(tf *v1alpha2.Terraform) { tf.Spec.ApprovePlan = v1alpha2.ApprovePlanAuto })},
			want: []string{"held for a person by strata's default policy"},
		},
		{
			name: "auto, with --no-default-policy",
			in:   checked{tf: object(func(tf *v1alpha2.Terraform) { tf.Spec.ApprovePlan = v1alpha2.ApprovePlanAuto }), opts: CheckOptions{NoDefaultPolicy: true}},
		},
		{
			name: "a refused reference",
			in:   checked{tf: object(nil), problems: []string{"spec.sourceRef names OCIRepository/other/app, in another namespace"}},
			want: []string{"!does not run (Ready False): spec.sourceRef names OCIRepository/other/app"},
		},
		{
			name: "waiting for an input",
			in:   checked{tf: object(nil), blocked: &environment.Blocked{Stack: "app", Waiting: true, Reason: "Secret app-vars is not there"}},
			want: []string{"!waits and does not run until what it reads is there: Secret app-vars"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := findings(tt.in)
			if len(got) != len(tt.want) {
				t.Fatalf("findings(%s) = %+v, want %d: %q", tt.name, got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				attention := strings.HasPrefix(w, "!")
				if got[i].Attention != attention || !strings.Contains(got[i].Message, strings.TrimPrefix(w, "!")) || got[i].Object != "app" {
					t.Errorf("findings(%s)[%d] = %+v, want %q (attention %v)", tt.name, i, got[i], w, attention)
				}
			}
		})
	}
}

func TestStateSecret(t *testing.T) {
	tests := []struct {
		name string
		spec v1alpha2.TerraformSpec
		jobs bool
		want string
	}{
		{name: "jobs, the default backend", jobs: true, want: "tfstate-default-app"},
		{name: "in process, the state directory", want: ""},
		{name: "a secret suffix and a workspace", spec: v1alpha2.TerraformSpec{Workspace: "prod", BackendConfig: &v1alpha2.BackendConfigSpec{SecretSuffix: "eks"}}, want: "tfstate-prod-eks"},
		{name: "a backend of its own", jobs: true, spec: v1alpha2.TerraformSpec{BackendConfig: &v1alpha2.BackendConfigSpec{CustomConfiguration: `backend "s3" {}`}}, want: ""},
		{name: "the module's backend", jobs: true, spec: v1alpha2.TerraformSpec{BackendConfig: &v1alpha2.BackendConfigSpec{Disable: true}}, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tf := &v1alpha2.Terraform{ObjectMeta: metav1.ObjectMeta{Name: "app"}, Spec: tt.spec}
			if got, _ := stateSecret(tf, CheckOptions{Jobs: tt.jobs}); got != tt.want {
				t.Errorf("stateSecret(%s) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}
