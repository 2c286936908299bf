//go:build k8s

package controller_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

func toUnstructured(t *testing.T, tf *v1alpha2.Terraform) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(tf)
	if err != nil {
		t.Fatal(err)
	}
	delete(m, "status")
	return &unstructured.Unstructured{Object: m}
}

func fromUnstructured(t *testing.T, u *unstructured.Unstructured, tf *v1alpha2.Terraform) {
	t.Helper()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, tf); err != nil {
		t.Fatal(err)
	}
}
