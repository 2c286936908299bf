package tcdata

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanSecret(t *testing.T) {
	long := strings.Repeat("n", 70)
	tests := []struct {
		name, workspace, object string
		wantName                string
		wantLabels              map[string]string
	}{
		{"default workspace", "", "app", "tfplan-default-app", map[string]string{PlanNameLabel: "app", PlanWorkspaceLabel: "default"}},
		{"named workspace", "blue", "app", "tfplan-blue-app", map[string]string{PlanNameLabel: "app", PlanWorkspaceLabel: "blue"}},
		{"name longer than a label", "", long, "tfplan-default-" + long, map[string]string{PlanNameLabel: long[:63], PlanWorkspaceLabel: "default"}},
	}
	plan := []byte("a saved plan file")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PlanSecret(tt.workspace, tt.object, "plan-0123456789ab", plan)
			if err != nil {
				t.Fatalf("PlanSecret(%q, %q) = %v", tt.workspace, tt.object, err)
			}
			if got.Name != tt.wantName {
				t.Errorf("PlanSecret(%q, %q).Name = %q, want %q", tt.workspace, tt.object, got.Name, tt.wantName)
			}
			if diff := cmp.Diff(tt.wantLabels, got.Labels); diff != "" {
				t.Errorf("PlanSecret(%q, %q).Labels mismatch (-want +got):\n%s", tt.workspace, tt.object, diff)
			}
			if a := got.Annotations; a[SavedPlanAnnotation] != "plan-0123456789ab" || a[EncodingAnnotation] != "gzip" || a[PlanFullNameAnnotation] != tt.object {
				t.Errorf("PlanSecret(%q, %q).Annotations = %v, want savedPlan, encoding gzip and the full name", tt.workspace, tt.object, a)
			}
			zr, err := gzip.NewReader(bytes.NewReader(got.Data[PlanKey]))
			if err != nil {
				t.Fatal(err)
			}
			if b, err := io.ReadAll(zr); err != nil || !bytes.Equal(b, plan) {
				t.Errorf("PlanSecret(%q, %q) tfplan = %q, %v, want the plan gzipped", tt.workspace, tt.object, b, err)
			}
		})
	}
}

func TestPlanSecretTooLarge(t *testing.T) {
	big := make([]byte, 2<<20)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanSecret("", "app", "plan-1", big); err == nil || !strings.Contains(err.Error(), "more than a Secret holds") {
		t.Errorf("PlanSecret(2 MiB of noise) = %v, want an error that it does not fit", err)
	}
}
