package graph

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// example is a small environment: one stack per layer below services, and
// three services.
func example() []Node {
	return []Node{
		{Name: "api", File: "stacks/api.yaml", Layer: 3, LayerName: "services", Deps: []Edge{
			{To: "database", Why: "dependsOn"},
			{To: "cluster", Why: "dependsOn"},
			{To: "database", Why: "reads contract database"},
		}},
		{Name: "database", File: "stacks/database.yaml", Layer: 3, LayerName: "services", Deps: []Edge{
			{To: "network", Why: "reads contract network"},
		}},
		{Name: "monitoring", File: "stacks/monitoring.yaml", Layer: 3, LayerName: "services"},
		{Name: "cluster", File: "stacks/cluster.yaml", Layer: 2, LayerName: "cluster", Deps: []Edge{
			{To: "network", Why: "dependsOn"},
		}},
		{Name: "network", File: "stacks/network.yaml", Layer: 1, LayerName: "network", Deps: []Edge{
			{To: "account", Why: "dependsOn"},
		}},
		{Name: "account", File: "stacks/account.yaml", Layer: 0, LayerName: "account"},
	}
}

func mustBuild(t *testing.T, nodes []Node) *Graph {
	t.Helper()
	g, problems := Build(nodes)
	if len(problems) > 0 {
		t.Fatalf("Build() problems:\n%v", problems)
	}
	return g
}

// golden compares got with testdata/<name>, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s mismatch (-want +got):\n%s", name, cmp.Diff(string(want), string(got)))
	}
}
