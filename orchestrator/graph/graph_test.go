package graph

import (
	"encoding/json"
	"testing"
)

func TestLayerLabel(t *testing.T) {
	tests := []struct {
		node Node
		want string
	}{
		{Node{Layer: 1, LayerName: "network"}, "network"},
		{Node{Layer: 7}, "layer 7"},
		{Node{Layer: -1}, "layer -1"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := layerLabel(tt.node); got != tt.want {
				t.Errorf("layerLabel(%+v) = %q, want %q", tt.node, got, tt.want)
			}
		})
	}
}

func TestJSON(t *testing.T) {
	n := Node{Name: "api", File: "api.yaml", Layer: 3, LayerName: "services", Deps: []Edge{{To: "db", Why: "dependsOn"}}}
	data, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"api","file":"api.yaml","layer":3,"layerName":"services","deps":[{"to":"db","why":"dependsOn"}]}`
	if string(data) != want {
		t.Errorf("json.Marshal(%+v) = %s, want %s", n, data, want)
	}
}
