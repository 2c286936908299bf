package readers

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFind(t *testing.T) {
	doc := func(section, key, file string, line, col int) Read {
		return Read{Var: "network", Contract: "network", Section: section, Key: key, Pos: Pos{"stack/" + file, line, col}}
	}
	set := func(contract, section, key string, line, col int) Read {
		return Read{Var: "values", Contract: contract, Section: section, Key: key, Pos: Pos{"stack/main.tf", line, col}}
	}
	tests := []struct {
		dir   string
		feeds []Feed
		want  []Read
	}{
		{
			dir:   "document",
			feeds: []Feed{{Var: "network", Shape: Document, Contract: "network"}},
			want: []Read{
				doc("", "", "main.tf", 20, 13),                 // passed on whole to a module
				doc("private", "token", "main.tf", 11, 18),     // var.network.private.token
				doc("public", "", "main.tf", 4, 13),            // indexed by a run-time value
				doc("public", "", "outputs.tf", 6, 18),         // handed to a function
				doc("public", "nats", "main.tf", 14, 18),       // splat after the key
				doc("public", "subnet_ids", "main.tf", 9, 18),  // plain
				doc("public", "subnet_ids", "main.tf", 10, 18), // indexed after the key
				doc("public", "subnets", "main.tf", 13, 28),    // in a for expression
				doc("public", "vpc_id", "main.tf", 2, 39),      // in a template
				doc("public", "zone", "main.tf", 3, 13),        // literal indexes
			},
		},
		{
			dir:   "set",
			feeds: []Feed{{Var: "values", Shape: DocumentSet, Contracts: []string{"cluster", "network"}}},
			want: []Read{
				set("cluster", "", "", 11, 16), // keys(var.values): every contract, whole
				set("cluster", "public", "name", 4, 16),
				set("cluster", "public", "region", 5, 16), // contract only known at run time
				set("network", "", "", 11, 16),
				set("network", "public", "region", 5, 16),
				set("network", "public", "vpc_id", 3, 16),
				// var.values.nonesuch names no contract of the set: no read.
			},
		},
		{
			dir: "keys",
			feeds: []Feed{
				{Var: "network", Shape: Keys, Contract: "network"},
				{Var: "subnet_ids", Shape: Value, Contract: "network", Section: SectionPublic, Key: "subnet_ids"},
			},
			want: []Read{
				{Var: "network", Contract: "network", Pos: Pos{"stack/main.tf", 5, 26}},
				{Var: "network", Contract: "network", Key: "vpc_id", Pos: Pos{"stack/main.tf", 3, 15}},
				{Var: "subnet_ids", Contract: "network", Section: "public", Key: "subnet_ids", Pos: Pos{"stack/main.tf", 4, 15}},
			},
		},
		{
			// A varsFrom without varsKeys: every variable not fed
			// otherwise reads the key of its own name.
			dir: "keys",
			feeds: []Feed{
				{Var: AnyVar, Shape: Value, Contract: "outputs"},
				{Var: "network", Shape: Keys, Contract: "network"},
			},
			want: []Read{
				{Var: "network", Contract: "network", Pos: Pos{"stack/main.tf", 5, 26}},
				{Var: "network", Contract: "network", Key: "vpc_id", Pos: Pos{"stack/main.tf", 3, 15}},
				{Var: "name", Contract: "outputs", Key: "name", Pos: Pos{"stack/main.tf", 6, 15}},
				{Var: "subnet_ids", Contract: "outputs", Key: "subnet_ids", Pos: Pos{"stack/main.tf", 4, 15}},
			},
		},
		{
			// try() and can() cope with a missing key.
			dir:   "optional",
			feeds: []Feed{{Var: "network", Contract: "network"}},
			want: []Read{
				{Var: "network", Contract: "network", Section: "public", Key: "nat_id", Optional: true, Pos: Pos{"stack/main.tf", 3, 17}},
				{Var: "network", Contract: "network", Section: "public", Key: "vpc_id", Pos: Pos{"stack/main.tf", 4, 13}},
				{Var: "network", Contract: "network", Section: "public", Key: "zone", Optional: true, Pos: Pos{"stack/main.tf", 2, 17}},
			},
		},
		{
			// .tofu and .tofu.json files are read, .tf.json too; a .tofu
			// file stands in for the .tf of its name, hidden files are
			// not code, and JSON object keys are names, never reads.
			dir:   "tofu",
			feeds: []Feed{{Var: "network", Contract: "network"}},
			want: []Read{
				{Var: "network", Contract: "network", Section: "private", Key: "token", Pos: Pos{"stack/outputs.tf.json", 4, 31}},
				{Var: "network", Contract: "network", Section: "public", Key: "nat", Optional: true, Pos: Pos{"stack/more.tofu.json", 1, 111}},
				{Var: "network", Contract: "network", Section: "public", Key: "subnet_ids", Pos: Pos{"stack/more.tofu.json", 1, 50}},
				{Var: "network", Contract: "network", Section: "public", Key: "vpc_id", Pos: Pos{"stack/main.tofu", 2, 11}},
				{Var: "network", Contract: "network", Section: "public", Key: "zone", Pos: Pos{"stack/outputs.tf.json", 3, 26}},
			},
		},
		{
			dir:   "document",
			feeds: []Feed{{Var: "account", Contract: "account"}},
			want:  nil, // the stack reads no fed variable
		},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			got, err := Find("testdata/"+tt.dir, "stack", tt.feeds)
			if err != nil {
				t.Fatalf("Find(%q) error: %v", tt.dir, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Find(%q) mismatch (-want +got):\n%s", tt.dir, diff)
			}
		})
	}
}

// The demo's own cluster stack reads network's vpc_id and subnet_ids.
func TestFindDemoCluster(t *testing.T) {
	const dir = "flux-apps/platform-stacks/cluster/terraform"
	got, err := Find("../../"+dir, dir, []Feed{{Var: "network", Contract: "network"}})
	if err != nil {
		t.Fatalf("Find(%q) error: %v", dir, err)
	}
	var where []string
	for _, r := range got {
		where = append(where, r.What()+" "+r.Pos.String())
	}
	want := []string{
		"network.public.subnet_ids " + dir + "/main.tf:14",
		"network.public.vpc_id " + dir + "/main.tf:4",
		"network.public.vpc_id " + dir + "/main.tf:13",
	}
	if diff := cmp.Diff(want, where); diff != "" {
		t.Errorf("Find(%q) mismatch (-want +got):\n%s", dir, diff)
	}
}

func TestFindErrors(t *testing.T) {
	tests := []struct {
		dir  string
		want string
	}{
		{"broken", "find contract reads in stack/main.tf: stack/main.tf:2,30-3,1: Invalid attribute name"},
		{"nonesuch", "find contract reads in stack: open testdata/nonesuch"},
		{"brokenjson", "find contract reads in stack/main.tf.json: stack/main.tf.json:2,"},
		{"brokentemplate", "find contract reads in stack/main.tofu.json: stack/main.tofu.json:1,"},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			_, err := Find("testdata/"+tt.dir, "stack", []Feed{{Var: "network", Contract: "network"}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Find(%q) = %v, want an error containing %q", tt.dir, err, tt.want)
			}
		})
	}
}

func TestReads(t *testing.T) {
	tests := []struct {
		read         Read
		section, key string
		want         bool
	}{
		{Read{Section: "public", Key: "vpc_id"}, "public", "vpc_id", true},
		{Read{Section: "public", Key: "vpc_id"}, "public", "cidr", false},
		{Read{Section: "public", Key: "vpc_id"}, "private", "vpc_id", false},
		{Read{Section: "public"}, "public", "cidr", true},
		{Read{Section: "public"}, "private", "cidr", false},
		{Read{Key: "vpc_id"}, "private", "vpc_id", true},
		{Read{}, "private", "token", true},
	}
	for _, tt := range tests {
		t.Run(tt.read.What(), func(t *testing.T) {
			if got := tt.read.Reads(tt.section, tt.key); got != tt.want {
				t.Errorf("%+v.Reads(%q, %q) = %v, want %v", tt.read, tt.section, tt.key, got, tt.want)
			}
		})
	}
}

func TestWhat(t *testing.T) {
	tests := []struct {
		read Read
		want string
	}{
		{Read{Contract: "network", Section: "public", Key: "vpc_id"}, "network.public.vpc_id"},
		{Read{Contract: "network", Section: "public"}, "network.public.*"},
		{Read{Contract: "network", Key: "vpc_id"}, "network.*.vpc_id"},
		{Read{Contract: "network"}, "network.*"},
	}
	for _, tt := range tests {
		if got := tt.read.What(); got != tt.want {
			t.Errorf("%+v.What() = %q, want %q", tt.read, got, tt.want)
		}
	}
}

// FindInFile takes any bytes: it never panics, and every read it returns
// names a fed contract and a position in the file.
func FuzzFindInFile(f *testing.F) {
	for _, s := range []string{
		`x = var.network.public.vpc_id`,
		`x = var.values["network"].public[var.k].id`,
		`module "m" { n = var.network }`,
		`x = [for k, v in var.values : v.public.id]`,
		`x = var.network.public[*].id`,
		`x = var.network.`,
	} {
		f.Add([]byte(s))
	}
	feeds := []Feed{
		{Var: "network", Contract: "network"},
		{Var: "values", Shape: DocumentSet, Contracts: []string{"network", "cluster"}},
		{Var: "ids", Shape: Value, Contract: "network", Key: "subnet_ids"},
		{Var: "keys", Shape: Keys, Contract: "cluster"},
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		reads, err := FindInFile(src, "main.tf", feeds)
		if err != nil {
			return
		}
		for _, r := range reads {
			if r.Contract != "network" && r.Contract != "cluster" {
				t.Errorf("FindInFile(%q) read %+v, want contract network or cluster", src, r)
			}
			if r.Pos.File != "main.tf" || r.Pos.Line < 1 {
				t.Errorf("FindInFile(%q) read at %v, want a line of main.tf", src, r.Pos)
			}
		}
	})
}
