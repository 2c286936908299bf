package kube

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

func TestOwnRefs(t *testing.T) {
	yes := true
	owner := &v1alpha2.Terraform{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: "ns", UID: "new"}}
	ours := metav1.OwnerReference{APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind, Name: "app", UID: "new", Controller: &yes}
	other := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "keep", UID: "cm"}
	tests := []struct {
		name      string
		have      []metav1.OwnerReference
		want      []metav1.OwnerReference
		wantOwned bool
	}{
		{name: "already ours", have: []metav1.OwnerReference{other, ours}, want: []metav1.OwnerReference{other, ours}, wantOwned: true},
		{name: "none, as a person wrote it", want: []metav1.OwnerReference{ours}},
		{
			name: "an object of the same name before it was re-created",
			have: []metav1.OwnerReference{{APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind, Name: "app", UID: "old", Controller: &yes}},
			want: []metav1.OwnerReference{ours},
		},
		{
			name: "ours without the controller mark",
			have: []metav1.OwnerReference{{APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind, Name: "app", UID: "new"}},
			want: []metav1.OwnerReference{ours},
		},
		{
			name: "another kind controls it",
			have: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "d", Controller: &yes}},
			want: []metav1.OwnerReference{
				{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "d", Controller: &yes},
				{APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind, Name: "app", UID: "new"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			meta := metav1.ObjectMeta{Name: "app-outputs", OwnerReferences: tt.have}
			if got := ownRefs(&meta, owner); got != tt.wantOwned {
				t.Errorf("ownRefs(%s) = %v, want %v", tt.name, got, tt.wantOwned)
			}
			if diff := cmp.Diff(tt.want, meta.OwnerReferences); diff != "" {
				t.Errorf("ownRefs(%s) references mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
