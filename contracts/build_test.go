package contracts

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestBuild(t *testing.T) {
	now := time.Date(2025, 3, 4, 5, 6, 7, 890_000_000, time.FixedZone("CET", 3600))
	stamp := time.Date(2025, 3, 4, 4, 6, 7, 0, time.UTC)
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name        string
		outputs     map[string]Output
		only        []string
		wantPublic  map[string]any
		wantPrivate map[string]any
	}{
		{
			name: "by sensitivity",
			outputs: map[string]Output{
				"vpc_id":   {Value: "vpc-1"},
				"subnets":  {Value: []any{"a", "b"}},
				"password": {Value: "hunter2", Sensitive: true},
				"db":       {Value: obj("endpoint", "db.internal", "port", 5432.0), Sensitive: true},
			},
			wantPublic:  obj("vpc_id", "vpc-1", "subnets", []any{"a", "b"}),
			wantPrivate: obj("password", "hunter2", "db", obj("endpoint", "db.internal", "port", 5432.0)),
		},
		{
			name: "renamed, as writeOutputsToSecret.outputs old:new",
			outputs: map[string]Output{
				"vpc_id":   {Value: "vpc-1"},
				"password": {Value: "hunter2", Sensitive: true},
				"other":    {Value: "x"},
			},
			only:        []string{"vpc_id:network_id", "password:db_password"},
			wantPublic:  obj("network_id", "vpc-1"),
			wantPrivate: obj("db_password", "hunter2"),
		},
		{
			name:        "no outputs",
			outputs:     nil,
			wantPublic:  obj(),
			wantPrivate: obj(),
		},
		{
			name: "explicit split",
			outputs: map[string]Output{
				"public":  {Value: obj("url", "https://api")},
				"private": {Value: obj("database", obj("endpoint", "db.internal")), Sensitive: true},
			},
			wantPublic:  obj("url", "https://api"),
			wantPrivate: obj("database", obj("endpoint", "db.internal")),
		},
		{
			name: "explicit private need not be sensitive",
			outputs: map[string]Output{
				"private": {Value: obj("token", "t")},
			},
			wantPublic:  obj(),
			wantPrivate: obj("token", "t"),
		},
		{
			name: "explicit split and other outputs by sensitivity",
			outputs: map[string]Output{
				"public":  {Value: obj("url", "https://api")},
				"region":  {Value: "eu-west-1"},
				"api_key": {Value: "k", Sensitive: true},
			},
			wantPublic:  obj("url", "https://api", "region", "eu-west-1"),
			wantPrivate: obj("api_key", "k"),
		},
		{
			name: "public that is not an object is an ordinary output",
			outputs: map[string]Output{
				"public": {Value: "yes"},
			},
			wantPublic:  obj("public", "yes"),
			wantPrivate: obj(),
		},
		{
			name: "only",
			outputs: map[string]Output{
				"vpc_id":   {Value: "vpc-1"},
				"internal": {Value: "x"},
				"password": {Value: "hunter2", Sensitive: true},
			},
			only:        []string{"vpc_id", "password"},
			wantPublic:  obj("vpc_id", "vpc-1"),
			wantPrivate: obj("password", "hunter2"),
		},
		{
			name: "only the explicit public",
			outputs: map[string]Output{
				"public": {Value: obj("url", "u")},
				"secret": {Value: "s", Sensitive: true},
			},
			only:        []string{"public"},
			wantPublic:  obj("url", "u"),
			wantPrivate: obj(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Build("network", "0.1.3", tt.outputs, tt.only, now)
			if err != nil {
				t.Fatalf("Build(%q) = %v, want nil", tt.name, err)
			}
			want := Document{
				Installed: true, Version: "0.1.3", Stack: "network", UpdatedAt: stamp,
				Public: tt.wantPublic, Private: tt.wantPrivate,
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Build(%q) mismatch (-want +got):\n%s", tt.name, diff)
			}
			if got.UpdatedAt.Location() != time.UTC {
				t.Errorf("Build(%q) UpdatedAt = %v, want UTC", tt.name, got.UpdatedAt)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name    string
		outputs map[string]Output
		only    []string
		want    string
	}{
		{
			name:    "sensitive public",
			outputs: map[string]Output{"public": {Value: map[string]any{"k": "v"}, Sensitive: true}},
			want: `build contract of stack network: output "public" is sensitive: ` +
				`a sensitive value may never be published as public; rename it to "private"`,
		},
		{
			name:    "sensitive public that is not an object",
			outputs: map[string]Output{"public": {Value: "v", Sensitive: true}},
			want:    `output "public" is sensitive`,
		},
		{
			name:    "only names a missing output",
			outputs: map[string]Output{"vpc_id": {Value: "v"}},
			only:    []string{"vpc_id", "subnet_ids", "zone"},
			want:    `build contract of stack network: the stack has no output "subnet_ids", "zone" to publish`,
		},
		{
			name: "clash with the explicit public",
			outputs: map[string]Output{
				"public": {Value: map[string]any{"url": "a"}},
				"url":    {Value: "b"},
			},
			want: `output "url" clashes with key "url" of output "public"`,
		},
		{
			name: "clash with the explicit private",
			outputs: map[string]Output{
				"private": {Value: map[string]any{"token": "a"}},
				"token":   {Value: "b", Sensitive: true},
			},
			want: `output "token" clashes with key "token" of output "private"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build("network", "0.1.3", tt.outputs, tt.only, time.Now())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build(%q) = %v, want an error containing %q", tt.name, err, tt.want)
			}
		})
	}
}

func TestBuildCopiesValues(t *testing.T) {
	inner := map[string]any{"endpoint": "db"}
	outputs := map[string]Output{
		"private": {Value: map[string]any{"database": inner}},
		"list":    {Value: []any{"a"}},
	}
	d, err := Build("db", "1.0.0", outputs, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	d.Private["database"].(map[string]any)["endpoint"] = "changed"
	d.Public["list"].([]any)[0] = "changed"
	if inner["endpoint"] != "db" || outputs["list"].Value.([]any)[0] != "a" {
		t.Errorf("changing the document changed the outputs: %v, %v", inner, outputs["list"].Value)
	}
}

// Build keeps each key's type as tofu printed it, under the key's
// published name.
func TestBuildTypes(t *testing.T) {
	list := "[\n      \"list\",\n      \"string\"\n    ]"
	tests := []struct {
		name    string
		outputs map[string]Output
		only    []string
		want    map[string]string
	}{
		{
			name: "each output's own type",
			outputs: map[string]Output{
				"vpc_id":   {Value: "vpc-1", Type: []byte(`"string"`)},
				"subnets":  {Value: []any{"a"}, Type: []byte(list)},
				"password": {Value: 3.0, Sensitive: true, Type: []byte(`"number"`)},
			},
			want: map[string]string{"vpc_id": `"string"`, "subnets": list, "password": `"number"`},
		},
		{
			name: "renamed",
			outputs: map[string]Output{
				"subnets": {Value: []any{"a"}, Type: []byte(list)},
				"other":   {Value: "x", Type: []byte(`"string"`)},
			},
			only: []string{"subnets:subnet_ids"},
			want: map[string]string{"subnet_ids": list},
		},
		{
			name: "type unknown",
			outputs: map[string]Output{
				"vpc_id": {Value: "vpc-1"},
			},
		},
		{
			name: "explicit split: attribute and element types",
			outputs: map[string]Output{
				"public":  {Value: map[string]any{"url": "u", "ports": []any{1.0}}, Type: []byte(`["object",{"url":"string","ports":["list","number"]}]`)},
				"private": {Value: map[string]any{"token": "t"}, Type: []byte(`["map","string"]`)},
			},
			want: map[string]string{"url": `"string"`, "ports": `["list","number"]`, "token": `"string"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Build("network", "0.1.3", tt.outputs, tt.only, time.Now())
			if err != nil {
				t.Fatalf("Build(%q) = %v, want nil", tt.name, err)
			}
			if diff := cmp.Diff(tt.want, got.Types); diff != "" {
				t.Errorf("Build(%q) types mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
