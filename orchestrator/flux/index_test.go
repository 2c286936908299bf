package flux

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestDuplicate: an identity rendered twice is a problem within one build
// (the entry directory's too), nothing more where a Kustomization renders
// the entry directory's own file, and a warning of ownership when two
// Kustomizations apply it, or the entry directory and a Kustomization
// from two files.
func TestDuplicate(t *testing.T) {
	obj := func(file, by string) *object {
		o := &object{File: file, by: by}
		o.Kind, o.Metadata.Name, o.Metadata.Namespace = kindConfigMap, "settings", "apps"
		return o
	}
	tests := []struct {
		name               string
		o, prev            *object
		problems, warnings []string
	}{
		{"two files of one build", obj("b.yaml", "k"), obj("a.yaml", "k"),
			[]string{"ConfigMap/settings is defined twice in the same directory: also in a.yaml"}, nil},
		{"one file reached twice by one build", obj("a.yaml", "k"), obj("a.yaml", "k"), nil, nil},
		{"the entry directory and a Kustomization", obj("a.yaml", "k"), obj("a.yaml", ""), nil, nil},
		{"two files of the entry directory", obj("b.yaml", ""), obj("a.yaml", ""),
			[]string{"ConfigMap/settings is defined twice in the same directory: also in a.yaml"}, nil},
		{"two files, the entry directory and a Kustomization", obj("b.yaml", "k"), obj("a.yaml", ""), nil,
			[]string{"ConfigMap apps/settings is applied by the entry directory and by Kustomization k (from two files, a.yaml and b.yaml): in the cluster the two would fight over its ownership; strata reads it once, as the entry directory renders it"}},
		{"one file, two Kustomizations", obj("a.yaml", "k2"), obj("a.yaml", "k1"), nil,
			[]string{"ConfigMap apps/settings is applied by Kustomization k1 and by Kustomization k2 (the same object): in the cluster the two would fight over its ownership; strata reads it once, as Kustomization k1 renders it"}},
		{"two files, two Kustomizations", obj("b.yaml", "k2"), obj("a.yaml", "k1"), nil,
			[]string{"ConfigMap apps/settings is applied by Kustomization k1 and by Kustomization k2 (from two files, a.yaml and b.yaml): in the cluster the two would fight over its ownership; strata reads it once, as Kustomization k1 renders it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLoader(context.Background(), "/repo", "e")
			l.env = &environment.Environment{}
			l.duplicate(tt.o, tt.prev, "in the same directory", true)
			var warnings []string
			for _, w := range l.env.Warnings {
				warnings = append(warnings, w.Message)
			}
			if diff := cmp.Diff(tt.problems, problemMessages(l)); diff != "" {
				t.Errorf("duplicate(%s) problems diff (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("duplicate(%s) warnings diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestBlockedHidesHeld: a waiting stack's variables, which may hold
// private values, never reach a Blocked written out (validate -o json,
// the status API).
func TestBlockedHidesHeld(t *testing.T) {
	b := environment.Blocked{Stack: "s", Waiting: true, Held: &environment.Stack{Name: "s", Vars: map[string]any{"token": "SENTINEL-held"}}}
	out, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "SENTINEL") {
		t.Errorf("json.Marshal(%v) = %s, want the held stack left out", b.Stack, out)
	}
}
