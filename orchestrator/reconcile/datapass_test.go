package reconcile_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// TestDataPassingAsTheTofuController applies testdata/datapass with real
// tofu: a producer writes its outputs to the Secret network-outputs (two
// of them renamed, one left out), and three stacks read it, with a
// ConfigMap and a Secret of the repository, through varsFrom (varsKeys,
// renames, optional), vars[].valueFrom, and readInputsFromSecrets with a
// values template. Each stack gets the variables the Tofu Controller
// would give it (the var files are compared byte for byte where the
// Tofu Controller's text is known), and their types are proven by what
// tofu computes from them: a number adds, a bool negates, a map's JSON
// text decodes.
func TestDataPassingAsTheTofuController(t *testing.T) {
	t.Parallel()
	tofu := tofutest.Binary(t)
	root := testrepo.Fixture(t, "datapass")
	dir := filepath.Join(root, "environments", "acme", "dev")
	_, g, err := validate.Environment(context.Background(), dir)
	if err != nil {
		t.Fatalf("Validate(%s) = %v, want no problem", dir, err)
	}
	edges := map[string][]string{}
	for _, n := range g.Nodes() {
		var to []string
		for _, e := range n.Deps {
			if !slices.Contains(to, e.To) {
				to = append(to, e.To)
			}
		}
		edges[n.Name] = to
	}
	wantEdges := map[string][]string{"network": nil, "varsfrom": {"network"}, "valuefrom": {"network"}, "values": {"network"}}
	if diff := cmp.Diff(wantEdges, edges); diff != "" {
		t.Errorf("graph of %s mismatch (-want +got):\n%s", dir, diff)
	}

	state := t.TempDir()
	var logs testkit.Buffer
	rep, err := reconcile.Reconcile(context.Background(), dir, history.OperationApply, reconcile.Options{
		Tofu: tofu, StateDir: state, MaxRunners: 2, DriftInterval: time.Hour, Logger: runlog.New(&logs, nil),
	})
	if err != nil {
		t.Fatalf("Reconcile(apply) = %v\nlogs:\n%s", err, logs.String())
	}
	want := map[string]string{"network": "applied/install", "varsfrom": "applied/install", "valuefrom": "applied/install", "values": "applied/install"}
	if diff := cmp.Diff(want, results(rep)); diff != "" {
		t.Fatalf("Reconcile(apply) results mismatch (-want +got):\n%s\nlogs:\n%s", diff, logs.String())
	}
	if strings.Contains(logs.String(), "SENTINEL") {
		t.Errorf("a private value appears in the log:\n%s", logs.String())
	}

	// What each stack computed from its variables: their types.
	contractsWant := map[string]map[string]any{
		// writeOutputsToSecret.outputs: vpc_id renamed, unpublished left
		// out, token private.
		"network-outputs": {"network_id": "vpc-0a1b", "count": 3.0, "tags": map[string]any{"team": "core", "env": "dev"}, "subnets": []any{"subnet-a", "subnet-b"}, "enabled": true},
		"varsfrom-outputs": {
			"network_id": "vpc-0a1b", "next_count": 4.0, "tags": map[string]any{"team": "core", "env": "dev"},
			"first_subnet": "subnet-a", "disabled": false, "region": "eu-west-1", "username": "admin",
			"password_length": float64(len("SENTINEL-repository-password")), "ghost": "",
			"token_length": float64(len("SENTINEL-network-token")),
		},
		"valuefrom-outputs": {"vpc": "vpc-0a1b", "double_size": 6.0, "region": "eu-west-1", "user": "admin", "maybe": "unset"},
		"values-outputs": {"values": map[string]any{
			"vpc": "vpc-0a1b", "count": "3", "first_subnet": "subnet-a", "team": "core", "user": "admin", "port": "5432", "fixed": 42.0,
		}},
	}
	for contract, wantPublic := range contractsWant {
		doc := publishedContract(t, dir, state, contract)
		if diff := cmp.Diff(wantPublic, doc["public"]); diff != "" {
			t.Errorf("contract %s public mismatch (-want +got):\n%s", contract, diff)
		}
	}
	if got := publishedContract(t, dir, state, "network-outputs")["private"]; !cmp.Equal(got, map[string]any{"token": "SENTINEL-network-token"}) {
		t.Errorf("contract network-outputs private = %v, want the token", got)
	}

	// The var files hold the Tofu Controller's text: a string as it is,
	// anything else as the JSON tofu printed for the output.
	varFiles := map[string]map[string]any{
		"varsfrom": {
			"network_id": "vpc-0a1b", "instance_count": "3", "enabled": "true",
			"tags":    "{\n      \"env\": \"dev\",\n      \"team\": \"core\"\n    }",
			"subnets": "[\n      \"subnet-a\",\n      \"subnet-b\"\n    ]",
			"region":  "eu-west-1", "username": "admin", "password": "SENTINEL-repository-password", "ghost": "",
			"token": "SENTINEL-network-token",
		},
		"valuefrom": {"vpc": "vpc-0a1b", "size": "3", "region": "eu-west-1", "user": "admin"},
		"values": {"values": map[string]any{
			"vpc": "vpc-0a1b", "count": "3", "first_subnet": "subnet-a", "team": "core", "user": "admin", "port": "5432", "fixed": 42.0,
		}},
	}
	for stack, wantVars := range varFiles {
		b, err := os.ReadFile(filepath.Join(state, "work", "acme", "dev", stack, "strata.tfvars.json"))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantVars, got); diff != "" {
			t.Errorf("var file of %s mismatch (-want +got):\n%s", stack, diff)
		}
	}
}

// publishedContract reads a contract of the environment from its store.
func publishedContract(t *testing.T, dir, state, name string) map[string]any {
	t.Helper()
	ctx := context.Background()
	env, err := flux.Load(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := reconcile.Options{StateDir: state}.Settings(env)
	if err != nil {
		t.Fatal(err)
	}
	st, err := envstores.OpenStores(ctx, env, set, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	doc, err := st.Contracts.Get(ctx, "/configuration/"+name)
	if err != nil {
		t.Fatalf("contract %s: %v", name, err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
