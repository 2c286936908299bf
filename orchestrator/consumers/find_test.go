package consumers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
)

// summary prints an index as "contract: stack what file:line" lines.
// Only the readers named in only are printed, when it is not empty.
func summary(x Index, only ...string) []string {
	var out []string
	for _, c := range []string{"account", "base", "cluster", "net", "network"} {
		for _, r := range x.Readers(c) {
			if len(only) > 0 && !slices.Contains(only, r.Stack) {
				continue
			}
			if r.Err != "" {
				out = append(out, fmt.Sprintf("%s: %s error %s", c, r.Stack, r.Err))
			}
			for _, rd := range r.Reads {
				out = append(out, fmt.Sprintf("%s: %s %s %s", c, r.Stack, rd.What(), rd.Pos))
			}
		}
	}
	return out
}

func codeDirs(env *environment.Environment) Dirs {
	return func(stack string) string {
		return filepath.Join(env.Root, env.Stack(stack).Path)
	}
}

func TestFind(t *testing.T) {
	const (
		cluster = "flux-apps/platform-stacks/cluster/terraform/main.tf"
		network = "flux-apps/platform-stacks/network/terraform/main.tf"
		api     = "flux-apps/service-stacks/api/terraform/main.tf"
		worker  = "flux-apps/service-stacks/worker/terraform/main.tf"
		report  = "flux-apps/service-stacks/report/terraform/main.tf"
	)
	tests := []struct {
		dir  string
		only []string
		want []string
	}{
		{
			dir: "../../environments/demo/dev",
			want: []string{
				"account: network account.public.account_id " + network + ":3",
				"account: network account.public.region " + network + ":14",
				"cluster: api cluster.private.ca_data " + api + ":14",
				"cluster: api cluster.public.endpoint " + api + ":13",
				"cluster: api cluster.public.name " + api + ":5",
				"cluster: api cluster.public.name " + api + ":12",
				"cluster: worker cluster.public.name " + worker + ":5",
				"network: cluster network.public.subnet_ids " + cluster + ":14",
				"network: cluster network.public.vpc_id " + cluster + ":4",
				"network: cluster network.public.vpc_id " + cluster + ":13",
			},
		},
		{
			// A set read by regular expression: keys() reads every
			// contract of the set whole.
			dir:  "../testdata/layered/environments/acme/dev",
			only: []string{"report"},
			want: []string{
				"base: report base.* " + report + ":27",
				"net: report net.* " + report + ":27",
				"net: report net.public.vpc_id " + report + ":22",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := tt.dir
			if rest, ok := strings.CutPrefix(dir, "../testdata/layered/"); ok {
				// A fixture repository inside this one is copied out: the
				// repository root is the git work tree's.
				dir = filepath.Join(testkit.Copy(t, "../testdata/layered"), rest)
			}
			env, err := flux.Load(context.Background(), dir)
			if err != nil {
				t.Fatalf("Load(%q): %v", dir, err)
			}
			got := summary(Find(env, codeDirs(env)), tt.only...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Find(%q) mismatch (-want +got):\n%s", tt.dir, diff)
			}
		})
	}
}

// A consumer whose code is not at hand reads every key, and says why.
func TestFindWithoutCode(t *testing.T) {
	const dir = "../../environments/demo/dev"
	env, err := flux.Load(context.Background(), dir)
	if err != nil {
		t.Fatalf("Load(%q): %v", dir, err)
	}
	x := Find(env, func(stack string) string {
		if stack == "cluster" {
			return ""
		}
		return filepath.Join(env.Root, env.Stack(stack).Path)
	})
	got := x.Readers("network")
	want := []Reader{{
		Stack: "cluster",
		Err:   "the code of stack cluster is not at hand: its source did not resolve",
	}}
	if diff := cmp.Diff(want, got, cmpIgnoreReads); diff != "" {
		t.Errorf("Find(%q).Readers(network) mismatch (-want +got):\n%s", dir, diff)
	}
	if len(got) != 1 || len(got[0].Reads) != 1 || !got[0].Reads[0].Reads("public", "subnet_ids") {
		t.Errorf("Find(%q).Readers(network) = %+v, want one read of every key", dir, got)
	}
}

// A consumer's code in .tofu and .tofu.json files is read as .tf code is,
// a .tofu file standing in for the .tf file of its name.
func TestFindTofuFiles(t *testing.T) {
	root := testkit.Copy(t, "../testdata/layered")
	code := filepath.Join(root, "flux-apps", "service-stacks", "report", "terraform")
	if err := os.Rename(filepath.Join(code, "main.tf"), filepath.Join(code, "main.tofu")); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(code, "main.tf"), `locals { ignored = var.configuration["base"].public.ignored }`)
	testkit.WriteFile(t, filepath.Join(code, "more.tofu.json"), `{"locals": {"zone": "${var.configuration[\"net\"].public.zone}"}}`)
	dir := filepath.Join(root, "environments", "acme", "dev")
	env, err := flux.Load(context.Background(), dir)
	if err != nil {
		t.Fatalf("Load(%q): %v", dir, err)
	}
	const report = "flux-apps/service-stacks/report/terraform/"
	want := []string{
		"base: report base.* " + report + "main.tofu:27",
		"net: report net.* " + report + "main.tofu:27",
		"net: report net.public.vpc_id " + report + "main.tofu:22",
		"net: report net.public.zone " + report + "more.tofu.json:1",
	}
	if diff := cmp.Diff(want, summary(Find(env, codeDirs(env)), "report")); diff != "" {
		t.Errorf("Find(%q) mismatch (-want +got):\n%s", dir, diff)
	}
}

var cmpIgnoreReads = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Reads" }, cmp.Ignore())

// The Tofu Controller's ways of reading another stack's Secret are reads
// too: varsKeys and valueFrom keys through the variables they feed, and
// the keys a values template names, at the Terraform object's file.
func TestFindDataPassing(t *testing.T) {
	dir := filepath.Join(testkit.Copy(t, "../testdata/datapass"), "environments", "acme", "dev")
	env, err := flux.Load(context.Background(), dir)
	if err != nil {
		t.Fatalf("Load(%q): %v", dir, err)
	}
	var got []string
	for _, r := range Find(env, codeDirs(env)).Readers("network-outputs") {
		if r.Err != "" {
			t.Errorf("Find(%q): reader %s: %s", dir, r.Stack, r.Err)
		}
		for _, rd := range r.Reads {
			got = append(got, fmt.Sprintf("%s %s %s %s", r.Stack, rd.Var, rd.What(), rd.Pos))
		}
	}
	const (
		valuefrom = "flux-apps/consumers/valuefrom/main.tf"
		varsfrom  = "flux-apps/consumers/varsfrom/main.tf"
		values    = "flux-apps/consumers/values.yaml"
	)
	want := []string{
		"valuefrom maybe network-outputs.*.not-an-output " + valuefrom + ":43",
		"valuefrom size network-outputs.*.count " + valuefrom + ":31",
		"valuefrom vpc network-outputs.*.network_id " + valuefrom + ":23",
		"valuefrom vpc network-outputs.*.network_id " + valuefrom + ":27",
		"values values network-outputs.*.count " + values + ":0",
		"values values network-outputs.*.network_id " + values + ":0",
		"values values network-outputs.*.subnets " + values + ":0",
		"values values network-outputs.*.tags " + values + ":0",
		"varsfrom enabled network-outputs.*.enabled " + varsfrom + ":68",
		"varsfrom instance_count network-outputs.*.count " + varsfrom + ":48",
		"varsfrom instance_count network-outputs.*.count " + varsfrom + ":56",
		"varsfrom network_id network-outputs.*.network_id " + varsfrom + ":48",
		"varsfrom network_id network-outputs.*.network_id " + varsfrom + ":52",
		"varsfrom subnets network-outputs.*.subnets " + varsfrom + ":64",
		"varsfrom tags network-outputs.*.tags " + varsfrom + ":60",
		"varsfrom token network-outputs.*.token " + varsfrom + ":88",
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Find(%q).Readers(network-outputs) mismatch (-want +got):\n%s", dir, diff)
	}
}
