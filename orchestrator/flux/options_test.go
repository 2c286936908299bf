package flux

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseFeatureGates reads --feature-gates as kustomize-controller
// reads its own, and refuses a gate that changes no render or a value
// that is no bool.
func TestParseFeatureGates(t *testing.T) {
	for _, tc := range []struct {
		value   string
		want    Options
		wantErr string
	}{
		{"", Options{}, ""},
		{"ObjectLevelWorkloadIdentity=true", Options{ObjectLevelWorkloadIdentity: true}, ""},
		{"StrictPostBuildSubstitutions=true, ObjectLevelWorkloadIdentity=false", Options{StrictSubstitution: true}, ""},
		{"DisableStatusPollerCache=true", Options{}, `"DisableStatusPollerCache" is not one of kustomize-controller's feature gates that change a render: ObjectLevelWorkloadIdentity, StrictPostBuildSubstitutions`},
		{"ObjectLevelWorkloadIdentity", Options{}, `"ObjectLevelWorkloadIdentity": write ObjectLevelWorkloadIdentity=true or ObjectLevelWorkloadIdentity=false`},
		{"ObjectLevelWorkloadIdentity=yes please", Options{}, "write ObjectLevelWorkloadIdentity=true"},
	} {
		var got Options
		err := ParseFeatureGates(&got, tc.value)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseFeatureGates(%q) = %v, want an error with %q", tc.value, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseFeatureGates(%q) = %v, want nil", tc.value, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseFeatureGates(%q) options (-want +got):\n%s", tc.value, diff)
		}
	}
}
