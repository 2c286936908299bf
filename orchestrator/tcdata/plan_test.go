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
		name, workspace, object, suffix string
		wantName                        string
		wantLabels                      map[string]string
	}{
		{"default workspace", "", "app", "", "tfplan-default-app", map[string]string{PlanNameLabel: "app", PlanWorkspaceLabel: "default"}},
		{"named workspace", "blue", "app", "", "tfplan-blue-app", map[string]string{PlanNameLabel: "app", PlanWorkspaceLabel: "blue"}},
		{"json", "", "app", JSONPlanSuffix, "tfplan-default-app.json", map[string]string{PlanNameLabel: "app.json", PlanWorkspaceLabel: "default"}},
		{"name longer than a label", "", long, "", "tfplan-default-" + long, map[string]string{PlanNameLabel: SafeLabelValue(long), PlanWorkspaceLabel: "default"}},
	}
	plan := []byte("a saved plan file")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PlanSecret(tt.workspace, tt.object, "plan-0123456789ab", tt.suffix, plan)
			if err != nil {
				t.Fatalf("PlanSecret(%q, %q) = %v", tt.workspace, tt.object, err)
			}
			if got.Name != tt.wantName {
				t.Errorf("PlanSecret(%q, %q).Name = %q, want %q", tt.workspace, tt.object, got.Name, tt.wantName)
			}
			if diff := cmp.Diff(tt.wantLabels, got.Labels); diff != "" {
				t.Errorf("PlanSecret(%q, %q).Labels mismatch (-want +got):\n%s", tt.workspace, tt.object, diff)
			}
			a := got.Annotations
			if a[SavedPlanAnnotation] != "plan-0123456789ab" || a[EncodingAnnotation] != "gzip" || a[PlanFullNameAnnotation] != tt.object+tt.suffix || len(a[PlanHashAnnotation]) != 64 {
				t.Errorf("PlanSecret(%q, %q).Annotations = %v, want savedPlan, encoding gzip, the full name and the hash", tt.workspace, tt.object, a)
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
	if _, err := PlanSecret("", "app", "plan-1", "", big); err == nil || !strings.Contains(err.Error(), "more than a Secret holds") {
		t.Errorf("PlanSecret(2 MiB of noise) = %v, want an error that it does not fit", err)
	}
}

func TestPlanConfigMap(t *testing.T) {
	text := []byte("\nChanges to Outputs:\n  + hello_world = \"Hello, World!\"\n")
	got, err := PlanConfigMap("", "app", "plan-1", text)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "tfplan-default-app" || string(got.Data[PlanKey]) != string(text) || got.Annotations[SavedPlanAnnotation] != "plan-1" {
		t.Errorf("PlanConfigMap(app) = %+v, want tfplan-default-app holding the text as it is, savedPlan plan-1", got)
	}
	if _, ok := got.Annotations[EncodingAnnotation]; ok {
		t.Errorf("PlanConfigMap(app) annotations = %v, want no encoding: the text is plain", got.Annotations)
	}
}

func TestSafeLabelValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"app", "app"},
		{strings.Repeat("a", 63), strings.Repeat("a", 63)},
		// The Tofu Controller's rule: cut, then "-" and 16 hex digits of
		// the SHA-256 of the whole value.
		{strings.Repeat("a", 64), strings.Repeat("a", 46) + "-ffe054fe7ae0cb6d"},
	}
	for _, tt := range tests {
		if got := SafeLabelValue(tt.in); got != tt.want || len(got) > 63 {
			t.Errorf("SafeLabelValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
