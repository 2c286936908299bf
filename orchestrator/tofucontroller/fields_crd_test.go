package tofucontroller

import (
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestFieldRulesCoverTheCRD keeps fields.go and the Terraform type (and so
// the CRD generated from it) in step: every field of the spec has a rule,
// and every rule is a field.
func TestFieldRulesCoverTheCRD(t *testing.T) {
	var fields []string
	typ := reflect.TypeFor[v1alpha2.TerraformSpec]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		fields = append(fields, name)
	}
	sort.Strings(fields)
	if diff := cmp.Diff(slices.Sorted(maps.Keys(terraformFields)), fields); diff != "" {
		t.Errorf("terraformFields and v1alpha2.TerraformSpec differ (-rules +type):\n%s", diff)
	}
}
