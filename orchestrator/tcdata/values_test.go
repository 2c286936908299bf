package tcdata

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRender(t *testing.T) {
	inputs := map[string]map[string]any{
		"net": {"vpc_id": "vpc-123", "count": 3.0, "subnets": []any{"a", "b"}, "tags": map[string]any{"k": "v"}, "on": true},
	}
	tests := []struct {
		name    string
		values  string
		want    any
		wantErr bool
	}{
		{name: "string", values: `{"vpc": "${{ .net.vpc_id }}"}`, want: map[string]any{"vpc": "vpc-123"}},
		{name: "a number renders as text", values: `{"n": "${{ .net.count }}"}`, want: map[string]any{"n": "3"}},
		{name: "a list renders as Go prints it", values: `{"s": "${{ .net.subnets }}"}`, want: map[string]any{"s": "[a b]"}},
		{name: "a map renders as Go prints it", values: `{"t": "${{ .net.tags }}"}`, want: map[string]any{"t": "map[k:v]"}},
		{name: "nested and plain", values: `{"a": {"b": ["x", "${{ .net.on }}"]}, "c": 1}`, want: map[string]any{"a": map[string]any{"b": []any{"x", "true"}}, "c": 1.0}},
		{name: "a missing key", values: `{"x": "${{ .net.nope }}"}`, want: map[string]any{"x": "<no value>"}},
		{name: "a missing input renders as nothing, as in the Tofu Controller", values: `{"x": "${{ .other.k }}"}`, want: map[string]any{"x": "<no value>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var values any
			if err := json.Unmarshal([]byte(tt.values), &values); err != nil {
				t.Fatal(err)
			}
			v, err := ParseValues(values)
			if err != nil {
				t.Fatalf("ParseValues(%s): %v", tt.values, err)
			}
			got, err := v.Render(inputs)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Render(%s) error = %v, want error %v", tt.values, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Render(%s) mismatch (-want +got):\n%s", tt.values, diff)
			}
		})
	}
}

func TestParseValuesRefusesBadTemplate(t *testing.T) {
	for _, values := range []string{`{"x": "${{ .net.vpc_id "}`, `{"x": "${{ if .a }}"}`} {
		var v any
		if err := json.Unmarshal([]byte(values), &v); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseValues(v); err == nil {
			t.Errorf("ParseValues(%s) = nil error, want one", values)
		}
	}
}

func TestRefs(t *testing.T) {
	tests := []struct {
		values string
		want   []Ref
	}{
		{values: `{"a": "${{ .net.vpc_id }}", "b": "${{ .net.subnets }}"}`, want: []Ref{{As: "net", Key: "vpc_id"}, {As: "net", Key: "subnets"}}},
		{values: `{"a": "${{ range .net }}x${{ end }}"}`, want: []Ref{{As: "net"}}},
		{values: `{"a": "${{ if .net.on }}${{ .cl.name }}${{ end }}"}`, want: []Ref{{As: "net", Key: "on"}, {As: "cl", Key: "name"}}},
		{values: `{"a": "${{ .unknown.k }}"}`, want: nil},
		{values: `{"a": "${{ . }}"}`, want: []Ref{{As: "net"}, {As: "cl"}}},
	}
	for _, tt := range tests {
		t.Run(tt.values, func(t *testing.T) {
			var values any
			if err := json.Unmarshal([]byte(tt.values), &values); err != nil {
				t.Fatal(err)
			}
			v, err := ParseValues(values)
			if err != nil {
				t.Fatalf("ParseValues(%s): %v", tt.values, err)
			}
			if diff := cmp.Diff(tt.want, v.Refs([]string{"net", "cl"})); diff != "" {
				t.Errorf("Refs(%s) mismatch (-want +got):\n%s", tt.values, diff)
			}
		})
	}
}

// FuzzValues: any spec.values either fails to parse, or renders to JSON
// or an error; nothing panics.
func FuzzValues(f *testing.F) {
	for _, s := range []string{`{"a": "${{ .net.vpc_id }}"}`, `{"a": "${{ range .net.subnets }}x${{ end }}"}`, `["${{ . }}"]`, `"${{"`} {
		f.Add(s)
	}
	inputs := map[string]map[string]any{"net": {"vpc_id": "vpc-1", "subnets": []any{"a"}}}
	f.Fuzz(func(t *testing.T, s string) {
		var values any
		if json.Unmarshal([]byte(s), &values) != nil {
			return
		}
		v, err := ParseValues(values)
		if err != nil {
			return
		}
		_ = v.Refs([]string{"net"})
		_, _ = v.Render(inputs)
	})
}
