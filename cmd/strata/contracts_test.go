package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/contracts/awstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.yaml.in/yaml/v3"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/local"
	"github.com/strata-iac/strata/contracts/ssm"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// sentinel starts the value of the base stack's sensitive admin_token
// output in the layered fixture.
const sentinel = "SENTINEL-"

// contractsCase is one strata contracts command line and what it prints.
type contractsCase struct {
	name     string
	args     []string
	wantCode int
	wantOut  []string
	wantErr  []string
	// wantRows are table rows, as their whitespace-separated fields, that
	// stdout must hold.
	wantRows [][]string
	// private is true for the command lines that ask for private values;
	// all others must never print the sentinel.
	private bool
}

func (tt contractsCase) run(t *testing.T) string {
	t.Helper()
	out, errOut := checkRun(t, tt.args, tt.wantCode, tt.wantOut, tt.wantErr)
	for _, w := range tt.wantRows {
		if !hasRow(out, w) {
			t.Errorf("strata %q stdout lacks the row %q:\n%s", tt.args, w, out)
		}
	}
	if !tt.private && strings.Contains(out+errOut, sentinel) {
		t.Errorf("strata %q printed a private value without --show-private:\nstdout:\n%s\nstderr:\n%s", tt.args, out, errOut)
	}
	return out
}

// hasRow tells whether out has a line whose fields are want.
func hasRow(out string, want []string) bool {
	for _, line := range strings.Split(out, "\n") {
		if cmp.Equal(strings.Fields(line), want) {
			return true
		}
	}
	return false
}

func TestContractsLocal(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	if out, errOut, code := strata(t, "apply", env, "--tofu", tofutest.Binary(t), "--state-dir", state); code != 0 {
		t.Fatalf("strata apply exit code = %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// A document under the prefix that no stack of the environment
	// produces, as another tool or a module would write it.
	legacy := contracts.Document{Installed: true, Version: "2.0.0", Stack: "legacy",
		UpdatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Public:    map[string]any{"url": "https://legacy"}, Private: map[string]any{"password": sentinel + "legacy"}}
	if err := local.New(filepath.Join(state, "contracts", "acme", "dev")).Put(context.Background(), "/configuration/legacy", legacy); err != nil {
		t.Fatal(err)
	}
	store := "the local store at " + filepath.Join(state, "contracts", "acme", "dev")
	empty := t.TempDir() // a state directory where nothing was applied
	c := func(args ...string) []string {
		return append(append([]string{"contracts"}, args...), "--state-dir", state)
	}

	tests := []contractsCase{
		{name: "ls", args: c("ls", env), wantRows: [][]string{
			{"KEY", "STACK", "PUBLISHED", "VERSION", "UPDATED", "PUBLIC", "PRIVATE"},
			{"/configuration/legacy", "(external)", "yes", "2.0.0", "2025-01-02T03:04:05Z", "url", "password"},
		}, wantOut: []string{"/configuration/base", "account_id", "admin_token", "/configuration/net", "cidr,vpc_id"}},
		{name: "ls before any apply", args: []string{"contracts", "ls", env, "--state-dir", empty},
			wantRows: [][]string{{"/configuration/base", "base", "no", "-", "-", "-", "-"}}},
		{name: "get redacts private values", args: c("get", env, "base"),
			wantOut: []string{`"stack": "base"`, `"account_id": "`, `"admin_token": "(sensitive)"`}},
		{name: "get by key", args: c("get", env, "/configuration/base"), wantOut: []string{`"admin_token": "(sensitive)"`}},
		{name: "get shows private values when asked", args: c("get", env, "base", "--show-private"),
			wantOut: []string{`"admin_token": "` + sentinel}, private: true},
		{name: "get public property", args: c("get", env, "net", "--property", "public.cidr"), wantOut: []string{"10.10.0.0/16\n"}},
		{name: "get property json", args: append(c("get", env, "net", "--property", "public.cidr"), "-o", "json"), wantOut: []string{`"10.10.0.0/16"`}},
		{name: "get object property", args: c("get", env, "net", "--property", "public"), wantOut: []string{`"cidr": "10.10.0.0/16"`}},
		{name: "get top-level property", args: c("get", env, "base", "--property", "stack"), wantOut: []string{"base\n"}},
		{name: "get private property needs the flag", args: c("get", env, "base", "--property", "private.admin_token"), wantCode: 1,
			wantErr: []string{`get contract /configuration/base property "private.admin_token"`, "add --show-private"}},
		{name: "get whole private part needs the flag", args: c("get", env, "base", "--property", "private"), wantCode: 1,
			wantErr: []string{"add --show-private"}},
		{name: "get private property", args: c("get", env, "base", "--property", "private.admin_token", "--show-private"),
			wantOut: []string{sentinel}, private: true},
		{name: "get missing property", args: c("get", env, "base", "--property", "public.nope"), wantCode: 1,
			wantErr: []string{`property "public.nope": the document has no such property`, "public.account_id, private.admin_token"}},
		{name: "get unknown key", args: c("get", env, "nope"), wantCode: 1,
			wantErr: []string{"get contract /configuration/nope: contract not found in " + store,
				"contracts under /configuration: /configuration/app, /configuration/base, /configuration/cluster"}},
		{name: "get in an empty store", args: []string{"contracts", "get", env, "base", "--state-dir", empty}, wantCode: 1,
			wantErr: []string{"there is no contract under /configuration yet: run strata apply first"}},
		{name: "get empty property", args: c("get", env, "base", "--property", ""), wantCode: 2, wantErr: []string{"--property is empty"}},
		{name: "get no key", args: c("get", env, "/"), wantCode: 2, wantErr: []string{`contract "/" names no contract`}},
		{name: "get schema", args: c("get", env, "net", "--schema"),
			wantOut: []string{"/configuration/net: schema version 1 (counts breaking changes)", "public.cidr", "public.vpc_id"},
			wantRows: [][]string{
				{"KEY", "TYPE", "SINCE", "SINCE", "VERSION", "SINCE", "SCHEMA"},
			}},
		{name: "get schema json", args: append(c("get", env, "base", "--schema"), "-o", "json"),
			wantOut: []string{`"contract": "base"`, `"version": 1`, `"section": "private"`, `"name": "admin_token"`, `"sinceVersion": "0.1.0"`}},
		{name: "get schema of an unpublished contract", args: []string{"contracts", "get", env, "base", "--schema", "--state-dir", empty},
			wantCode: 1, wantErr: []string{"no schema recorded in", "recorded when the contract is published, by strata apply"}},
		{name: "external-secret", args: c("external-secret", env, "base",
			"--map", "private.admin_token=ADMIN_TOKEN", "--map", "public.account_id=ACCOUNT_ID"),
			wantOut: []string{"# ExternalSecret for contract /configuration/base, published by stack base at version 0.1.0",
				"name: base-secrets-local", "name: strata-contracts-local", "kind: ClusterSecretStore", "refreshInterval: 1h",
				"    - remoteRef:\n        key: /configuration/base\n        property: private.admin_token\n      secretKey: ADMIN_TOKEN"}},
		{name: "external-secret missing property", args: c("external-secret", env, "base", "--map", "private.database.endpoint=DATABASE_HOST"),
			wantCode: 1, wantErr: []string{`has no property "private.database.endpoint" (DATABASE_HOST)`,
				"its properties are: installed, version, stack, updatedAt, public.account_id, private.admin_token"}},
		{name: "external-secret unpublished", args: []string{"contracts", "external-secret", env, "base", "--map", "public.account_id=ID", "--state-dir", empty},
			wantCode: 1, wantErr: []string{"the contract is not published in", "its producer base has not applied yet", "--allow-unpublished"}},
		{name: "external-secret no producer", args: c("external-secret", env, "ghost", "--map", "public.x=X"),
			wantCode: 1, wantErr: []string{"no stack of acme/dev produces it"}},
		{name: "external-secret allow unpublished", args: []string{"contracts", "external-secret", env, "base", "--map", "public.account_id=ID",
			"--allow-unpublished", "--state-dir", empty},
			wantOut: []string{"not published yet: its properties were not checked", "property: public.account_id"},
			wantErr: []string{"warning: /configuration/base is not published yet"}},
		{name: "external-secret allow unpublished checks the field", args: []string{"contracts", "external-secret", env, "base",
			"--map", "database.endpoint=HOST", "--allow-unpublished", "--state-dir", empty},
			wantCode: 1, wantErr: []string{`property "database.endpoint" (HOST) starts with no document field`}},
		{name: "external-secret bad map", args: c("external-secret", env, "base", "--map", "public.account_id"), wantCode: 2,
			wantErr: []string{`--map "public.account_id": want property=ENV_NAME`}},
		{name: "external-secret no map", args: c("external-secret", env, "base"), wantCode: 2, wantErr: []string{"give at least one --map"}},
		{name: "external-secret bad secret key", args: c("external-secret", env, "base", "--map", "public.account_id=A B"), wantCode: 2,
			wantErr: []string{`secret key "A B" may hold only`}},
		{name: "external-secret twice", args: c("external-secret", env, "base", "--map", "public.account_id=A", "--map", "stack=A"), wantCode: 2,
			wantErr: []string{"secret key A is mapped twice"}},
		{name: "external-secret bad kind", args: c("external-secret", env, "base", "--map", "public.account_id=A", "--secret-store-kind", "Vault"),
			wantCode: 2, wantErr: []string{`--secret-store-kind is "Vault"`}},
		{name: "external-secret bad refresh", args: c("external-secret", env, "base", "--map", "public.account_id=A", "--refresh", "soon"),
			wantCode: 2, wantErr: []string{`--refresh is "soon"`}},
		{name: "external-secret bad name", args: c("external-secret", env, "base", "--map", "public.account_id=A", "--name", "Base_Secrets"),
			wantCode: 2, wantErr: []string{`name "Base_Secrets" is not a Kubernetes object name`}},
		{name: "unknown output", args: append(c("ls", env), "-o", "yaml"), wantCode: 2, wantErr: []string{`unknown output format "yaml"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}

	t.Run("ls json", func(t *testing.T) {
		out := contractsCase{args: append(c("ls", env), "-o", "json")}.run(t)
		var got struct {
			Client, Environment, Store, Prefix string
			Contracts                          []contractRow
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata contracts ls -o json = %v, want JSON:\n%s", err, out)
		}
		if got.Client != "acme" || got.Environment != "dev" || got.Store != "local" || got.Prefix != "/configuration" {
			t.Errorf("strata contracts ls -o json = %s/%s %s %s, want acme/dev local /configuration", got.Client, got.Environment, got.Store, got.Prefix)
		}
		want := []contractRow{
			{Key: "/configuration/app", Contract: "app", Stack: "app", Published: true, Version: "1.0.0", Public: []string{"url"}, Private: []string{}},
			{Key: "/configuration/base", Contract: "base", Stack: "base", Published: true, Version: "0.1.0", Public: []string{"account_id"}, Private: []string{"admin_token"}},
			{Key: "/configuration/cluster", Contract: "cluster", Stack: "cluster", Published: true, Version: "0.1.0", Public: []string{"name", "vpc_id"}, Private: []string{}},
			{Key: "/configuration/jobs", Contract: "jobs", Stack: "jobs", Published: true, Version: "1.0.0", Public: []string{"queue"}, Private: []string{}},
			{Key: "/configuration/legacy", Contract: "legacy", Stack: externalProducer, Published: true, Version: "2.0.0", UpdatedAt: legacy.UpdatedAt, Public: []string{"url"}, Private: []string{"password"}},
			{Key: "/configuration/net", Contract: "net", Stack: "net", Published: true, Version: "0.1.0", Public: []string{"cidr", "vpc_id"}, Private: []string{}},
			{Key: "/configuration/report", Contract: "report", Stack: "report", Published: true, Version: "1.0.0", Public: []string{"sources"}, Private: []string{}},
		}
		ignoreApplyTime := cmpopts.IgnoreFields(contractRow{}, "UpdatedAt")
		if diff := cmp.Diff(want, got.Contracts, ignoreApplyTime); diff != "" {
			t.Errorf("strata contracts ls -o json mismatch (-want +got):\n%s", diff)
		}
		for _, r := range got.Contracts {
			if r.UpdatedAt.IsZero() {
				t.Errorf("strata contracts ls -o json: %s has no updatedAt", r.Key)
			}
		}
	})

	t.Run("get json is the redacted document", func(t *testing.T) {
		out := contractsCase{args: c("get", env, "base")}.run(t)
		var got contracts.Document
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata contracts get = %v, want a document:\n%s", err, out)
		}
		if got.Stack != "base" || got.Version != "0.1.0" || !got.Installed || got.Private["admin_token"] != contracts.Redaction {
			t.Errorf("strata contracts get = %+v, want base 0.1.0 with admin_token redacted", got)
		}
		out = contractsCase{args: c("get", env, "base", "--property", "private.admin_token", "--show-private"), private: true}.run(t)
		if !strings.HasPrefix(out, sentinel) || strings.Count(out, "\n") != 1 {
			t.Errorf("strata contracts get --property private.admin_token --show-private = %q, want the bare value", out)
		}
	})

	t.Run("external-secret manifest", func(t *testing.T) {
		out := contractsCase{args: c("external-secret", env, "/configuration/base", "--map", "private.admin_token=ADMIN_TOKEN",
			"--map", "public.account_id=ACCOUNT_ID", "--name", "base-admin", "--namespace", "ops",
			"--secret-store", "contracts", "--secret-store-kind", "SecretStore", "--refresh", "15m")}.run(t)
		var got externalSecret
		if err := yaml.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata contracts external-secret = %v, want YAML:\n%s", err, out)
		}
		want := externalSecret{
			APIVersion: "external-secrets.io/v1beta1",
			Kind:       "ExternalSecret",
			Metadata:   externalSecretMeta{Name: "base-admin", Namespace: "ops"},
			Spec: externalSecretSpec{
				RefreshInterval: "15m",
				SecretStoreRef:  secretStoreRef{Kind: "SecretStore", Name: "contracts"},
				Target:          externalSecretTarget{Name: "base-admin"},
				Data: []externalSecretDataItem{
					{RemoteRef: remoteRef{Key: "/configuration/base", Property: "private.admin_token"}, SecretKey: "ADMIN_TOKEN"},
					{RemoteRef: remoteRef{Key: "/configuration/base", Property: "public.account_id"}, SecretKey: "ACCOUNT_ID"},
				},
			},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("strata contracts external-secret mismatch (-want +got):\n%s", diff)
		}
		jsonOut := contractsCase{args: append(c("external-secret", env, "/configuration/base", "--map", "private.admin_token=ADMIN_TOKEN",
			"--map", "public.account_id=ACCOUNT_ID", "--name", "base-admin", "--namespace", "ops",
			"--secret-store", "contracts", "--secret-store-kind", "SecretStore", "--refresh", "15m"), "-o", "json")}.run(t)
		var gotJSON externalSecret
		if err := json.Unmarshal([]byte(jsonOut), &gotJSON); err != nil {
			t.Fatalf("strata contracts external-secret -o json = %v, want JSON:\n%s", err, jsonOut)
		}
		if diff := cmp.Diff(want, gotJSON); diff != "" {
			t.Errorf("strata contracts external-secret -o json mismatch (-want +got):\n%s", diff)
		}
	})
}

func TestContractsSSM(t *testing.T) {
	ctx := context.Background()
	endpoint := awstest.Moto(t)
	awstest.Env(t, "testing", "testing")
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	initFile := filepath.Join(env, "init.yaml")
	b, err := os.ReadFile(initFile)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, []byte("  contractStore: ssm\n  contractRegion: us-east-1\n  contractEndpoint: "+endpoint+"\n")...)
	if err := os.WriteFile(initFile, b, 0o644); err != nil {
		t.Fatal(err)
	}

	st, err := ssm.New(ctx, ssm.Config{Region: "us-east-1", Endpoint: endpoint})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	docs := map[string]contracts.Document{
		"/configuration/base": {Installed: true, Version: "0.1.0", Stack: "base", UpdatedAt: at,
			Public: map[string]any{"account_id": "123456789012"}, Private: map[string]any{"admin_token": sentinel + "ssm"}},
		"/configuration/acme/api": {Installed: true, Version: "3.1.0", Stack: "api", UpdatedAt: at,
			Public: map[string]any{"url": "https://api"}, Private: map[string]any{}},
		"/elsewhere/x": {Installed: true, Stack: "x", UpdatedAt: at, Public: map[string]any{}, Private: map[string]any{}},
	}
	for key, d := range docs {
		if err := st.Put(ctx, key, d); err != nil {
			t.Fatalf("Put(%q) = %v, want nil", key, err)
		}
	}
	store := "the ssm store in us-east-1 at " + endpoint
	state := t.TempDir()
	c := func(args ...string) []string {
		return append(append([]string{"contracts"}, args...), "--state-dir", state)
	}

	tests := []contractsCase{
		{name: "ls", args: c("ls", env), wantRows: [][]string{
			{"/configuration/acme/api", "(external)", "yes", "3.1.0", "2025-01-02T03:04:05Z", "url", "-"},
			{"/configuration/base", "base", "yes", "0.1.0", "2025-01-02T03:04:05Z", "account_id", "admin_token"},
			{"/configuration/net", "net", "no", "-", "-", "-", "-"},
		}},
		{name: "get", args: c("get", env, "base"), wantOut: []string{`"admin_token": "(sensitive)"`, `"account_id": "123456789012"`}},
		{name: "get nested", args: c("get", env, "acme/api", "--property", "public.url"), wantOut: []string{"https://api\n"}},
		{name: "get private", args: c("get", env, "base", "--property", "private.admin_token", "--show-private"),
			wantOut: []string{sentinel + "ssm\n"}, private: true},
		{name: "get unknown key", args: c("get", env, "net"), wantCode: 1, wantErr: []string{
			"get contract /configuration/net: contract not found in " + store,
			"contracts under /configuration: /configuration/acme/api, /configuration/base"}},
		{name: "external-secret", args: c("external-secret", env, "base", "--map", "private.admin_token=TOKEN"),
			wantOut: []string{"name: base-secrets-ssm", "name: aws-parameter-store", "key: /configuration/base"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}
	t.Run("ls json", func(t *testing.T) {
		out := contractsCase{args: append(c("ls", env), "-o", "json")}.run(t)
		var got struct {
			Store     string
			Contracts []contractRow
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata contracts ls -o json = %v, want JSON:\n%s", err, out)
		}
		if got.Store != "ssm" || len(got.Contracts) != 7 {
			t.Fatalf("strata contracts ls -o json = store %q with %d contracts, want ssm with 7 (6 stacks and acme/api)", got.Store, len(got.Contracts))
		}
		wantAPI := contractRow{Key: "/configuration/acme/api", Contract: "acme/api", Stack: externalProducer, Published: true,
			Version: "3.1.0", UpdatedAt: at, Public: []string{"url"}, Private: []string{}}
		if diff := cmp.Diff(wantAPI, got.Contracts[0]); diff != "" {
			t.Errorf("strata contracts ls -o json first row mismatch (-want +got):\n%s", diff)
		}
	})
}
