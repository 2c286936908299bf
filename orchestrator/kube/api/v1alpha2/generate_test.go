package v1alpha2_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// controllerGen is the controller-gen `make crd` runs; keep the two equal.
const controllerGen = "sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0"

// TestGeneratedFilesAreCurrent runs controller-gen over the types, as
// `make crd` does, and compares what it writes with the checked-in
// deepcopy code and CRD.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds controller-gen")
	}
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	// The CRD of both versions, then each version's deepcopy code (one
	// output directory would get both under one name).
	for _, args := range [][]string{
		{"crd", "paths=./orchestrator/kube/api/...", "output:crd:dir=" + out},
		{"object", "paths=./orchestrator/kube/api/v1alpha2/...", "output:object:dir=" + filepath.Join(out, "v1alpha2")},
		{"object", "paths=./orchestrator/kube/api/v1alpha1/...", "output:object:dir=" + filepath.Join(out, "v1alpha1")},
	} {
		cmd := exec.Command("go", append([]string{"run", controllerGen}, args...)...)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("controller-gen %v: %v\n%s", args, err, b)
		}
	}
	for _, tc := range []struct{ generated, checkedIn string }{
		{"v1alpha2/zz_generated.deepcopy.go", "orchestrator/kube/api/v1alpha2/zz_generated.deepcopy.go"},
		{"v1alpha1/zz_generated.deepcopy.go", "orchestrator/kube/api/v1alpha1/zz_generated.deepcopy.go"},
		{"infra.contrib.fluxcd.io_terraforms.yaml", "flux-apps/strata/crd/infra.contrib.fluxcd.io_terraforms.yaml"},
	} {
		t.Run(tc.generated, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(out, tc.generated))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(root, tc.checkedIn))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s is stale: run make crd (-generated +checked in):\n%s", tc.checkedIn, diff)
			}
		})
	}
}
