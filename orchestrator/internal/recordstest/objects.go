package recordstest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/records"
)

// RunObjects runs the contract of an object store the records engine
// keeps its records in (records.Objects) against the store open returns,
// new and empty for each case.
func RunObjects(t *testing.T, open func(t *testing.T) records.Objects) {
	for _, c := range objectCases {
		t.Run(c.name, func(t *testing.T) { c.test(t, open(t)) })
	}
}

var objectCases = []struct {
	name string
	test func(t *testing.T, o records.Objects)
}{
	{"creates only if there is none", testCreate},
	{"writes only over the version read", testWrite},
	{"writes whatever is there", testWriteAny},
	{"deletes", testDelete},
	{"lists by prefix", testListObjects},
	{"keeps a held plan's record", testPlanRecord},
	{"keeps a stack's artifact", testKeepArtifact},
}

// runOf is the key of run n of acme/dev's stack.
func runOf(stack string, n int) records.Key {
	return records.Key{Kind: records.Run, Client: "acme", Env: "dev", Stack: stack, Number: n}
}

// read reads k, or fails the test.
func read(t *testing.T, o records.Objects, k records.Key) ([]byte, string) {
	t.Helper()
	data, version, err := o.Read(context.Background(), k)
	if err != nil {
		t.Fatalf("Read(%s) = %v", o.Name(k), err)
	}
	if version == "" {
		t.Fatalf("Read(%s) = no version", o.Name(k))
	}
	return data, version
}

func testCreate(t *testing.T, o records.Objects) {
	ctx := context.Background()
	k := runOf("network", 1)
	if _, _, err := o.Read(ctx, k); !errors.Is(err, records.ErrNotFound) {
		t.Errorf("Read(%s) before Create = %v, want %v", o.Name(k), err, records.ErrNotFound)
	}
	if err := o.Create(ctx, k, []byte(`{"n":1}`)); err != nil {
		t.Fatalf("Create(%s) = %v", o.Name(k), err)
	}
	if err := o.Create(ctx, k, []byte(`{"n":2}`)); !errors.Is(err, records.ErrChanged) {
		t.Errorf("Create(%s) again = %v, want %v", o.Name(k), err, records.ErrChanged)
	}
	if got, _ := read(t, o, k); string(got) != `{"n":1}` {
		t.Errorf("Read(%s) after a second Create = %s, want the first", o.Name(k), got)
	}
}

func testWrite(t *testing.T, o records.Objects) {
	ctx := context.Background()
	k := records.Key{Kind: records.Claims}
	if err := o.Write(ctx, k, []byte(`{}`), "1"); !errors.Is(err, records.ErrChanged) {
		t.Errorf("Write(%s, a version) with no object = %v, want %v", o.Name(k), err, records.ErrChanged)
	}
	if err := o.Create(ctx, k, []byte(`{"a":"x"}`)); err != nil {
		t.Fatalf("Create(%s) = %v", o.Name(k), err)
	}
	_, v1 := read(t, o, k)
	if err := o.Write(ctx, k, []byte(`{"a":"y"}`), v1); err != nil {
		t.Fatalf("Write(%s) over the version read = %v", o.Name(k), err)
	}
	got, v2 := read(t, o, k)
	if string(got) != `{"a":"y"}` || v2 == v1 {
		t.Errorf("Read(%s) after Write = %s at %q, want {\"a\":\"y\"} at a version other than %q", o.Name(k), got, v2, v1)
	}
	// Another writer read v1 too: its write is refused, and changes
	// nothing.
	if err := o.Write(ctx, k, []byte(`{"a":"z"}`), v1); !errors.Is(err, records.ErrChanged) {
		t.Errorf("Write(%s) over a version another writer replaced = %v, want %v", o.Name(k), err, records.ErrChanged)
	}
	if got, _ := read(t, o, k); string(got) != `{"a":"y"}` {
		t.Errorf("Read(%s) after a refused Write = %s, want {\"a\":\"y\"}", o.Name(k), got)
	}
}

func testWriteAny(t *testing.T, o records.Objects) {
	ctx := context.Background()
	k := records.Key{Kind: records.PlanFile, Client: "acme", Env: "dev", Stack: "network", Plan: "plan-0123456789ab", File: "part-0"}
	for _, data := range []string{"first", "second"} {
		if err := o.Write(ctx, k, []byte(data), records.Any); err != nil {
			t.Fatalf("Write(%s, any) = %v", o.Name(k), err)
		}
		if got, _ := read(t, o, k); string(got) != data {
			t.Errorf("Read(%s) after Write(%q, any) = %q", o.Name(k), data, got)
		}
	}
}

func testDelete(t *testing.T, o records.Objects) {
	ctx := context.Background()
	k := runOf("network", 1)
	if err := o.Create(ctx, k, []byte(`{}`)); err != nil {
		t.Fatalf("Create(%s) = %v", o.Name(k), err)
	}
	_, v := read(t, o, k)
	for range 2 {
		if err := o.Delete(ctx, k); err != nil {
			t.Errorf("Delete(%s) = %v, want nil (gone is no error)", o.Name(k), err)
		}
	}
	if _, _, err := o.Read(ctx, k); !errors.Is(err, records.ErrNotFound) {
		t.Errorf("Read(%s) after Delete = %v, want %v", o.Name(k), err, records.ErrNotFound)
	}
	// A write over the version of a deleted object never brings it back.
	if err := o.Write(ctx, k, []byte(`{}`), v); !errors.Is(err, records.ErrChanged) {
		t.Errorf("Write(%s) over a deleted object = %v, want %v", o.Name(k), err, records.ErrChanged)
	}
	if _, _, err := o.Read(ctx, k); !errors.Is(err, records.ErrNotFound) {
		t.Errorf("Read(%s) after a Write over a deleted object = %v, want %v", o.Name(k), err, records.ErrNotFound)
	}
}

func testListObjects(t *testing.T, o records.Objects) {
	ctx := context.Background()
	plan := records.Key{Kind: records.Plan, Client: "acme", Env: "dev", Stack: "a/b", Plan: "plan-0123456789ab"}
	file := func(k records.Key, name string) records.Key {
		k.Kind, k.File = records.PlanFile, name
		return k
	}
	other := plan
	other.Plan = "plan-00000000aaaa"
	prodRun := runOf("network", 1)
	prodRun.Env = "prod"
	keys := []records.Key{
		runOf("network", 1), runOf("network", 2), runOf("network", 10), runOf("..", 1), runOf("a/b", 3), prodRun,
		plan, other, file(plan, "part-0"), file(plan, "part-1"), file(other, "part-0"),
	}
	for _, k := range keys {
		if err := o.Create(ctx, k, []byte(`{"name":"`+o.Name(k)+`"}`)); err != nil {
			t.Fatalf("Create(%s) = %v", o.Name(k), err)
		}
	}
	tests := []struct {
		name   string
		prefix records.Key
		want   []records.Key
	}{
		{"runs of an environment", records.Key{Kind: records.Run, Client: "acme", Env: "dev"},
			[]records.Key{runOf("network", 1), runOf("network", 2), runOf("network", 10), runOf("..", 1), runOf("a/b", 3)}},
		{"runs of a stack", records.Key{Kind: records.Run, Client: "acme", Env: "dev", Stack: "network"},
			[]records.Key{runOf("network", 1), runOf("network", 2), runOf("network", 10)}},
		{"runs of no stack", records.Key{Kind: records.Run, Client: "acme", Env: "dev", Stack: "dns"}, nil},
		{"held plans of a stack", records.Key{Kind: records.Plan, Client: "acme", Env: "dev", Stack: "a/b"}, []records.Key{plan, other}},
		{"files of a plan", file(plan, ""), []records.Key{file(plan, "part-0"), file(plan, "part-1")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, err := o.List(ctx, tt.prefix)
			if err != nil {
				t.Fatalf("List(%+v) = %v", tt.prefix, err)
			}
			var got []records.Key
			for _, e := range entries {
				got = append(got, e.Key)
				// What a listing gives with the key is the object.
				if e.Version != "" {
					data, version := read(t, o, e.Key)
					if string(e.Data) != string(data) || e.Version != version {
						t.Errorf("List(%+v) entry %s = %s at %q, want %s at %q as read", tt.prefix, o.Name(e.Key), e.Data, e.Version, data, version)
					}
				}
			}
			order := func(a, b records.Key) int { return strings.Compare(o.Name(a), o.Name(b)) }
			slices.SortFunc(got, order)
			want := slices.SortedFunc(slices.Values(tt.want), order)
			if !cmp.Equal(got, want) {
				t.Errorf("List(%+v) = %v, want %v", tt.prefix, got, want)
			}
		})
	}
}

// testPlanRecord keeps a held plan's record, a JSON object, as the JSON
// it is (a store may keep its fields apart).
func testPlanRecord(t *testing.T, o records.Objects) {
	ctx := context.Background()
	k := records.Key{Kind: records.Plan, Client: "acme", Env: "dev", Stack: "network", Plan: "plan-0123456789ab"}
	recs := []string{
		`{"held":{"planId":"plan-0123456789ab"},"payload":{"parts":1,"sha256":"ab"}}`,
		`{"approval":{"by":"ana"},"held":{"planId":"plan-0123456789ab"},"payload":{"parts":2,"sha256":"cd"}}`,
		`{"held":{"planId":"plan-0123456789ab"},"files":{"plan.tfplan":"ef"}}`,
	}
	for i, want := range recs {
		var err error
		if i == 0 {
			err = o.Create(ctx, k, []byte(want))
		} else {
			_, v := read(t, o, k)
			err = o.Write(ctx, k, []byte(want), v)
		}
		if err != nil {
			t.Fatalf("write record %d of %s = %v", i, o.Name(k), err)
		}
		got, _ := read(t, o, k)
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("Read(%s) = %s: %v", o.Name(k), got, err)
		}
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(g, w) {
			t.Errorf("Read(%s) after writing record %d = %s, want %s", o.Name(k), i, got, want)
		}
	}
}
