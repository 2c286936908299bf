package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSecretData(t *testing.T) {
	list := "[\n      \"list\",\n      \"string\"\n    ]"
	tests := []struct {
		name   string
		values map[string]any
		types  map[string]string
		want   map[string]string
	}{
		{
			name:   "a string as its text, no type",
			values: map[string]any{"vpc_id": "vpc-1"},
			types:  map[string]string{"vpc_id": `"string"`},
			want:   map[string]string{"vpc_id": "vpc-1"},
		},
		{
			name:   "a number as its JSON beside its type",
			values: map[string]any{"size": 3.0},
			types:  map[string]string{"size": `"number"`},
			want:   map[string]string{"size": "3", "size__type": `"number"`},
		},
		{
			name:   "a list indented as tofu prints it, its type as tofu printed it",
			values: map[string]any{"zones": []any{"a", "b"}},
			types:  map[string]string{"zones": list},
			want:   map[string]string{"zones": "[\n      \"a\",\n      \"b\"\n    ]", "zones__type": list},
		},
		{
			name:   "a map",
			values: map[string]any{"tags": map[string]any{"team": "core"}},
			types:  map[string]string{"tags": `["map","string"]`},
			want:   map[string]string{"tags": "{\n      \"team\": \"core\"\n    }", "tags__type": `["map","string"]`},
		},
		{
			name:   "a type the contract does not hold",
			values: map[string]any{"zones": []any{"a"}},
			want:   map[string]string{"zones": "[\n      \"a\"\n    ]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := secretData(tt.values, tt.types)
			if err != nil {
				t.Fatalf("secretData(%v) = %v", tt.values, err)
			}
			got := map[string]string{}
			for k, v := range data {
				got[k] = string(v)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("secretData(%v) mismatch (-want +got):\n%s", tt.values, diff)
			}
		})
	}
}
