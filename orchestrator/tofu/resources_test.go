package tofu

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
)

func TestModuleResources(t *testing.T) {
	root := &tfjson.StateModule{
		Resources: []*tfjson.StateResource{
			{Mode: tfjson.ManagedResourceMode, Type: "terraform_data", Name: "a", AttributeValues: map[string]any{"id": "abc"}},
			{Mode: tfjson.DataResourceMode, Type: "terraform_remote_state", Name: "r"},
			nil,
		},
		ChildModules: []*tfjson.StateModule{{
			Address:   "module.net",
			Resources: []*tfjson.StateResource{{Mode: tfjson.ManagedResourceMode, Type: "terraform_data", Name: "b", AttributeValues: map[string]any{}}},
		}},
	}
	want := []Resource{
		{Name: "a", Type: "terraform_data", ID: "abc"},
		{Name: "b", Type: "terraform_data", Module: "module.net"},
	}
	if diff := cmp.Diff(want, moduleResources(root)); diff != "" {
		t.Errorf("moduleResources() mismatch (-want +got):\n%s", diff)
	}
	if got := moduleResources(nil); got != nil {
		t.Errorf("moduleResources(nil) = %v, want nil", got)
	}
}
