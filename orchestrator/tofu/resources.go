package tofu

import (
	"context"
	"fmt"

	tfjson "github.com/hashicorp/terraform-json"
)

// Resource is one managed resource of the state.
type Resource struct {
	// Name and Type are the resource's, as in its address; Module is the
	// module address it is in ("" for the root module).
	Name, Type, Module string
	// ID is its id attribute ("" when it has none).
	ID string
}

// Resources lists the managed resources of the current state, in the
// root module and every module under it (`tofu show -json`, read with
// terraform-exec).
func (w *Workspace) Resources(ctx context.Context) ([]Resource, error) {
	st, err := w.tf.Show(ctx)
	if err != nil {
		return nil, fmt.Errorf("tofu show: %w", err)
	}
	if st == nil || st.Values == nil {
		return nil, nil
	}
	return moduleResources(st.Values.RootModule), nil
}

// moduleResources lists the managed resources of a state module and of
// its child modules.
func moduleResources(m *tfjson.StateModule) []Resource {
	if m == nil {
		return nil
	}
	var out []Resource
	for _, r := range m.Resources {
		if r == nil || r.Mode != tfjson.ManagedResourceMode {
			continue
		}
		id, _ := r.AttributeValues["id"].(string)
		out = append(out, Resource{Name: r.Name, Type: r.Type, Module: m.Address, ID: id})
	}
	for _, c := range m.ChildModules {
		out = append(out, moduleResources(c)...)
	}
	return out
}
