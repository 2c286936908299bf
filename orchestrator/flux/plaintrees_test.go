package flux

import (
	"fmt"
	"testing"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/strata-iac/strata/internal/yamltest"
)

// A plain build writes some of kustomize's trees itself (setAnnotations,
// rename, setNamespace, commonAnnotations): its tests change the objects
// of one document both ways and compare the trees node for node.

// objectsOf reads the objects of doc; a document kustomize does not
// read skips the test.
func objectsOf(t *testing.T, doc string) []*resource.Resource {
	t.Helper()
	rs, err := resourceFactory.SliceFromBytes([]byte(doc))
	if err != nil {
		t.Skipf("SliceFromBytes(%q): %v", doc, err)
	}
	return rs
}

// resMapOf reads the objects of doc into a ResMap, as a build holds
// them; a document kustomize does not read, or holds one id twice in,
// skips the test.
func resMapOf(t *testing.T, doc string) resmap.ResMap {
	t.Helper()
	m := resmap.New()
	for _, r := range objectsOf(t, doc) {
		if err := m.Append(r); err != nil {
			t.Skipf("Append(%q): %v", doc, err)
		}
	}
	return m
}

// bothWays reads the objects of doc twice, changes each object of one
// reading with ours and the same object of the other with kustomize's
// theirs, and returns "" when they leave the same trees and errors, and
// how they differ otherwise.
func bothWays(t *testing.T, doc string, ours, theirs func(*resource.Resource) error) string {
	t.Helper()
	got, want := objectsOf(t, doc), objectsOf(t, doc)
	for i := range got {
		gotErr, wantErr := ours(got[i]), theirs(want[i])
		if (gotErr != nil) != (wantErr != nil) {
			return fmt.Sprintf("object %d: error %v, kustomize's %v", i, gotErr, wantErr)
		}
	}
	return sameTrees(got, want)
}

// sameTrees returns "" when got and want are the same trees, node for
// node, and how they differ otherwise.
func sameTrees(got, want []*resource.Resource) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d objects, kustomize's %d", len(got), len(want))
	}
	for i := range got {
		if d := yamltest.Diff(fmt.Sprintf("object %d", i), got[i].YNode(), want[i].YNode()); d != "" {
			return d
		}
	}
	return ""
}
