//go:build k8s && kube

package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestClusterInputsInCluster gives the homelab's dns stack its token as
// External Secrets would: a Secret made in a namespace of the real
// cluster, which `validate` and `apply --kubeconfig` read with a get and
// never write. The token reaches tofu and no output.
func TestClusterInputsInCluster(t *testing.T) {
	c := k8stest.Get(t)
	ns := c.Namespace(t, "strata-inputs")
	root := homelab(t)
	for _, f := range []string{"platform/lab/stacks/dns.yaml", "platform/lab/stacks/network.yaml"} {
		testkit.EditFile(t, root, f, "  namespace: flux-system\n", "  namespace: "+ns+"\n")
		// The source stays flux-system's, as Flux needs it named there.
		testkit.EditFile(t, root, f, "    kind: GitRepository\n    name: flux-system\n", "    kind: GitRepository\n    name: flux-system\n    namespace: flux-system\n")
	}
	env := filepath.Join(root, "clusters", "lab")
	state := t.TempDir()

	out, errOut, code := strata(t, "validate", env, "--kubeconfig", c.Kubeconfig)
	if code != 1 || !strings.Contains(out, "waiting for input Secret/"+ns+"/dns-credentials") {
		t.Fatalf("strata validate --kubeconfig with no Secret in the cluster = %d, want 1 and dns waiting for it:\n%s\n%s", code, out, errOut)
	}
	_, err := c.Client.CoreV1().Secrets(ns).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "dns-credentials", Namespace: ns},
		StringData: map[string]string{"api_token": dnsSentinel},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var seen strings.Builder
	for _, tt := range []cliCase{
		{"validate reads it", []string{"validate", env, "--kubeconfig", c.Kubeconfig}, 1, []string{"has 1 blocked stack(s): 3 stacks in 3 layers, 1 dependencies"}, nil},
		{"apply", []string{"apply", env, "--kubeconfig", c.Kubeconfig, "--tofu", tofutest.Binary(t), "--state-dir", state}, 1, []string{"3 applied, 1 blocked"}, nil},
		{"a context that does not exist", []string{"validate", env, "--kubeconfig", c.Kubeconfig, "--context", "nope"}, 2, nil, []string{`context "nope" does not exist`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut := checkRun(t, tt.args, tt.wantCode, tt.wantOut, tt.wantErr)
			seen.WriteString(out + errOut)
		})
	}
	if strings.Contains(seen.String(), dnsSentinel) {
		t.Errorf("the token read from the cluster appears in strata's output:\n%s", seen.String())
	}
	assertNoPlainHash(t, state, dnsSentinel)
	s, err := c.Client.CoreV1().Secrets(ns).Get(context.Background(), "dns-credentials", metav1.GetOptions{})
	if err != nil || s.ResourceVersion == "" || len(s.ManagedFields) != 1 {
		t.Errorf("the Secret after strata read it = %v, %v; want it as the test made it, written by nobody else", s, err)
	}
}
