package flux

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestStringMapsIntern: maps of equal entries come back as the first of
// them, whatever order they were written in; maps that differ in a key
// or a value each stay their own.
func TestStringMapsIntern(t *testing.T) {
	tests := []struct {
		name string
		maps []map[string]string
		// want gives, for each map, the index of the map intern returns
		// for it.
		want []int
	}{
		{
			name: "equal maps share the first",
			maps: []map[string]string{{"a": "1", "b": "2"}, {"b": "2", "a": "1"}, {"a": "1", "b": "2"}},
			want: []int{0, 0, 0},
		},
		{
			name: "a value differs",
			maps: []map[string]string{{"a": "1"}, {"a": "2"}, {"a": "1"}},
			want: []int{0, 1, 0},
		},
		{
			name: "a key differs",
			maps: []map[string]string{{"a": "1"}, {"b": "1"}},
			want: []int{0, 1},
		},
		{
			name: "an entry more",
			maps: []map[string]string{{"a": "1"}, {"a": "1", "b": "2"}, {"a": "1"}},
			want: []int{0, 1, 0},
		},
		{
			name: "key and value split differently",
			maps: []map[string]string{{"a": "\x00b"}, {"a\x00": "b"}},
			want: []int{0, 1},
		},
		{
			name: "empty maps are their own",
			maps: []map[string]string{{}, {}},
			want: []int{0, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s stringMaps
			var got []int
			for _, m := range tt.maps {
				kept := s.intern(m)
				if !cmp.Equal(kept, m) {
					t.Fatalf("intern(%v) = %v, want equal entries", m, kept)
				}
				i := -1
				for j, o := range tt.maps {
					if reflect.ValueOf(o).UnsafePointer() == reflect.ValueOf(kept).UnsafePointer() {
						i = j
						break
					}
				}
				got = append(got, i)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("intern(%v) kept maps (-want +got):\n%s", tt.maps, diff)
			}
		})
	}
}

// TestStringMapsNil: a nil stringMaps shares nothing, as decodeObject's
// callers that keep no maps ask.
func TestStringMapsNil(t *testing.T) {
	var s *stringMaps
	m := map[string]string{"a": "1"}
	if got := s.intern(m); reflect.ValueOf(got).UnsafePointer() != reflect.ValueOf(m).UnsafePointer() {
		t.Errorf("(*stringMaps)(nil).intern(%v) = another map, want the map given", m)
	}
	if got := s.intern(nil); got != nil {
		t.Errorf("(*stringMaps)(nil).intern(nil) = %v, want nil", got)
	}
}

// TestInternGenerating: Kustomizations whose specs ask the same of their
// builds share one generating; any field, or where a string ends,
// tells two apart.
func TestInternGenerating(t *testing.T) {
	patch := func(kind, text string) map[string]any {
		return map[string]any{"patch": text, "target": map[string]any{"kind": kind}}
	}
	specs := []map[string]any{
		{"targetNamespace": "a", "namePrefix": "bc"},
		{"targetNamespace": "ab", "namePrefix": "c"},
		{"patches": []any{patch("Terraform", "x")}},
		{"patches": []any{patch("Terraform", "y")}},
		{"patches": []any{patch("Secret", "x")}},
		{"patches": []any{map[string]any{"patch": "x"}}},
		{"patches": []any{}},
		{"patches": []any{}, "decryption": map[string]any{"provider": "sops"}},
		{"components": []any{"../c"}},
		{"components": []any{"../c", "../d"}},
		{"images": []any{}},
		{"buildMetadata": []any{"originAnnotations"}},
	}
	var s stringMaps
	kept := map[*generating]int{}
	for i, spec := range specs {
		g := s.internGenerating(generatingOf(map[string]any{"spec": spec}))
		if j, seen := kept[g]; seen {
			t.Errorf("internGenerating(spec %v) = the generating of spec %v, want its own", spec, specs[j])
		}
		kept[g] = i
		again := s.internGenerating(generatingOf(map[string]any{"spec": spec}))
		if again != g {
			t.Errorf("internGenerating(spec %v) a second time = another generating, want the first", spec)
		}
	}
	if got := s.internGenerating(nil); got != nil {
		t.Errorf("internGenerating(nil) = %+v, want nil", got)
	}
	var none *stringMaps
	g := generatingOf(map[string]any{"spec": specs[0]})
	if got := none.internGenerating(g); got != g {
		t.Errorf("(*stringMaps)(nil).internGenerating(g) = another generating, want g")
	}
}

// TestLoadSharesMaps: a load keeps one map of each distinct set of labels,
// annotations or substituted variables its objects carry, and lets go of each Terraform
// object's decoded spec once its stack is built, keeping the references
// the checks after it read.
func TestLoadSharesMaps(t *testing.T) {
	root := testkit.Copy(t, "testdata/valid")
	const common = "  commonMetadata:\n    labels:\n      team: data\n      tier: gold\n"
	testkit.EditFile(t, root, "environments/acme/stage/apps/db.yaml", "  path: ./flux-apps/apps/db\n", "  path: ./flux-apps/apps/db\n"+common)
	testkit.EditFile(t, root, "environments/acme/stage/apps/db.yaml", "  path: ./flux-apps/apps/empty\n", "  path: ./flux-apps/apps/empty\n"+common+"  postBuild:\n    substitute:\n      tier: gold\n")
	testkit.EditFile(t, root, "environments/acme/stage/apps/db.yaml", "  postBuild:\n    substituteFrom:\n", "  postBuild:\n    substitute:\n      tier: gold\n    substituteFrom:\n")
	l, err := read(context.Background(), filepath.Join(root, "environments/acme/stage"))
	if err != nil {
		t.Fatal(err)
	}
	if ps := l.sortedProblems(); len(ps) > 0 {
		t.Fatalf("read(valid with commonMetadata) problems: %v", ps)
	}
	ptr := func(m map[string]string) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }
	db, empty := l.kustomizations["db"], l.kustomizations["empty"]
	if ptr(db.Spec.CommonMetadata.Labels) != ptr(empty.Spec.CommonMetadata.Labels) {
		t.Errorf("read(valid) Kustomizations db and empty: two maps of spec.commonMetadata.labels %v, want one", db.Spec.CommonMetadata.Labels)
	}
	if ptr(db.Spec.PostBuild.Substitute) != ptr(empty.Spec.PostBuild.Substitute) {
		t.Errorf("read(valid) Kustomizations db and empty: two maps of postBuild.substitute %v, want one", db.Spec.PostBuild.Substitute)
	}
	tfs := map[string]*terraform{}
	for _, b := range l.stacks {
		tfs[b.stack.Name] = b.tf
		if b.tf.Spec != nil {
			t.Errorf("read(valid) Terraform %s: spec kept after its stack was built, want it let go", b.stack.Name)
		}
	}
	if got, want := ptr(tfs["db"].Metadata.Labels), ptr(tfs["db-migrate"].Metadata.Labels); got != want || want == nil {
		t.Errorf("read(valid) Terraforms db and db-migrate: labels %v and %v in two maps, want one", tfs["db"].Metadata.Labels, tfs["db-migrate"].Metadata.Labels)
	}
	refs := []string{}
	for _, name := range []string{"db", "db-migrate"} {
		r := tfs[name].refs
		refs = append(refs, fmt.Sprintf("%s: source %v, dependsOn %v", name, r.sourceRef, r.dependsOn))
	}
	want := []string{
		"db: source OCIRepository/db-iac, dependsOn []",
		"db-migrate: source OCIRepository/db-iac, dependsOn [{db }]",
	}
	if diff := cmp.Diff(want, refs); diff != "" {
		t.Errorf("read(valid) Terraform references (-want +got):\n%s", diff)
	}
	same := func(a, b string) bool { return a == b && unsafe.StringData(a) == unsafe.StringData(b) }
	for _, c := range []struct{ what, a, b string }{
		{"Kustomizations db and empty: apiVersion", db.APIVersion, empty.APIVersion},
		{"Kustomizations db and empty: kind", db.Kind, empty.Kind},
		{"Kustomizations db and empty: namespace", db.Metadata.Namespace, empty.Metadata.Namespace},
		{"Kustomizations db and empty: sourceRef.kind", db.Spec.SourceRef.Kind, empty.Spec.SourceRef.Kind},
		{"Terraforms db and db-migrate: apiVersion", tfs["db"].APIVersion, tfs["db-migrate"].APIVersion},
		{"Terraforms db and db-migrate: sourceRef.kind", tfs["db"].refs.sourceRef.Kind, tfs["db-migrate"].refs.sourceRef.Kind},
	} {
		if !same(c.a, c.b) {
			t.Errorf("read(valid) %s: %q and %q in two strings, want one", c.what, c.a, c.b)
		}
	}
}

// TestStringMapsStr: equal strings come back as the first of them; an
// empty string, or a nil stringMaps, keeps nothing.
func TestStringMapsStr(t *testing.T) {
	var s stringMaps
	first := string([]byte("flux-system"))
	second := string([]byte("flux-system"))
	if got := s.str(first); unsafe.StringData(got) != unsafe.StringData(first) {
		t.Errorf("str(%q) the first time = another string, want the one given", first)
	}
	if got := s.str(second); got != second || unsafe.StringData(got) != unsafe.StringData(first) {
		t.Errorf("str(%q) the second time = %q at another address, want the first one kept", second, got)
	}
	if got := s.str(""); got != "" || len(s.strings) != 1 {
		t.Errorf("str(\"\") = %q keeping %d strings, want \"\" and one kept", got, len(s.strings))
	}
	var none *stringMaps
	if got := none.str(second); unsafe.StringData(got) != unsafe.StringData(second) {
		t.Errorf("(*stringMaps)(nil).str(%q) = another string, want the one given", second)
	}
}
