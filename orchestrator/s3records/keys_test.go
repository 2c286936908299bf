package s3records

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/records"
)

// listings are the prefixes the engine lists.
var listings = []records.Key{
	{Kind: records.Run, Client: "acme", Env: "dev"},
	{Kind: records.Run, Client: "acme", Env: "dev", Stack: "a/b"},
	{Kind: records.Plan, Client: "acme", Env: "dev", Stack: "network"},
	{Kind: records.PlanFile, Client: "acme", Env: "dev", Stack: "network", Plan: "plan-0123456789ab"},
	{Kind: records.Artifact, Client: "acme", Env: "dev", Stack: "a/b"},
}

func TestParseKey(t *testing.T) {
	o := &objects{bucket: "b", prefix: "p/"}
	tests := []struct {
		prefix records.Key
		name   string
		want   records.Key
		wantOK bool
	}{
		{listings[0], "network/0000000012.json", records.Key{Kind: records.Run, Client: "acme", Env: "dev", Stack: "network", Number: 12}, true},
		{listings[0], "a%2Fb/0000000001.json", records.Key{Kind: records.Run, Client: "acme", Env: "dev", Stack: "a/b", Number: 1}, true},
		{listings[0], "network/12.json", records.Key{}, false},
		{listings[0], "network/0000000000.json", records.Key{}, false},
		{listings[0], "network/x/0000000001.json", records.Key{}, false},
		{listings[0], "sp ace/0000000001.json", records.Key{}, false},
		{listings[0], "%zz/0000000001.json", records.Key{}, false},
		{listings[1], "0000000003.json", records.Key{Kind: records.Run, Client: "acme", Env: "dev", Stack: "a/b", Number: 3}, true},
		{listings[2], "plan-0123456789ab/record.json", records.Key{Kind: records.Plan, Client: "acme", Env: "dev", Stack: "network", Plan: "plan-0123456789ab"}, true},
		{listings[2], "plan-0123456789ab/plan.tfplan", records.Key{}, false},
		{listings[3], "plan.json", records.Key{Kind: records.PlanFile, Client: "acme", Env: "dev", Stack: "network", Plan: "plan-0123456789ab", File: "plan.json"}, true},
		{listings[3], "record.json", records.Key{}, false},
		{listings[4], "9f86d081/0000000000", records.Key{Kind: records.Artifact, Client: "acme", Env: "dev", Stack: "a/b", File: "9f86d081"}, true},
		{listings[4], "9f86d081/0000000002", records.Key{Kind: records.Artifact, Client: "acme", Env: "dev", Stack: "a/b", File: "9f86d081", Number: 2}, true},
		{listings[4], "9f86d081/+000000002", records.Key{}, false},
		{listings[4], "9f86d081/2", records.Key{}, false},
		{listings[4], "9f86d081", records.Key{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseKey(tt.prefix, tt.name)
			if ok != tt.wantOK || (ok && !cmp.Equal(got, tt.want)) {
				t.Errorf("parseKey(%+v, %q) = %+v, %v, want %+v, %v", tt.prefix, tt.name, got, ok, tt.want, tt.wantOK)
			}
			if !ok {
				return
			}
			p, err := o.listPrefix(tt.prefix)
			if err != nil || o.key(got) != p+tt.name {
				t.Errorf("key(parseKey(%q)) = %q, %v, want %q", tt.name, o.key(got), err, p+tt.name)
			}
		})
	}
}

// FuzzParseKey reads any name under a listing's prefix: an object it
// takes for one of the listing's is named by the key it reads.
func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"network/0000000012.json", "a%2Fb/0000000001.json", "%zz/0000000001.json", "plan-0123456789ab/record.json", "plan.json", "0000000003.json", "9f86d081/0000000002"} {
		f.Add(s)
	}
	o := &objects{bucket: "b", prefix: "p/"}
	f.Fuzz(func(t *testing.T, name string) {
		for _, prefix := range listings {
			k, ok := parseKey(prefix, name)
			if !ok {
				continue
			}
			p, err := o.listPrefix(prefix)
			if err != nil {
				t.Fatal(err)
			}
			if got := o.key(k); got != p+name {
				t.Fatalf("key(parseKey(%+v, %q)) = %q, want %q", prefix, name, got, p+name)
			}
		}
	})
}
