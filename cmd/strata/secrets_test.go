package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/contracts/ssm"
	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/policy"
)

// sopsSentinel is the value of the SOPS-encrypted Secret withSOPSSecret
// adds.
const sopsSentinel = "SENTINEL-SOPS-db-password"

// fileSentinel is the content of the file base maps from a Secret.
const fileSentinel = "SENTINEL-FILE-CONTENT"

// envSentinel is the value of a Secret's key base's environment reads
// (runnerPodTemplate env), and backendSentinel the name of a directory
// its backend is given (backendConfigsFrom).
const (
	envSentinel     = "SENTINEL-ENV-token"
	backendSentinel = "SENTINEL-BACKEND-dir"
)

// withRunSecrets makes base of a copy of testdata/layered read a Secret's
// key into a sensitive variable through its environment
// (runnerPodTemplate env, envSentinel), and give its backend a Secret's
// key (backendConfigsFrom, a directory named backendSentinel): both as
// private as a sensitive output.
func withRunSecrets(t *testing.T, root string) {
	t.Helper()
	base := filepath.Join(root, "flux-apps", "platform-stacks", "base")
	testkit.WriteFile(t, filepath.Join(base, "run-creds.yaml"), "apiVersion: v1\nkind: Secret\nmetadata: {name: run-creds}\nstringData: {env_token: "+envSentinel+
		", workspace_dir: "+filepath.Join(t.TempDir(), backendSentinel)+"}\n")
	testkit.EditFile(t, root, "flux-apps/platform-stacks/base/kustomization.yaml", "  - terraform.yaml", "  - terraform.yaml\n  - run-creds.yaml")
	testkit.EditFile(t, root, "flux-apps/platform-stacks/base/terraform.yaml", "  writeOutputsToSecret:",
		"  runnerPodTemplate:\n    spec:\n      env:\n        - {name: TF_VAR_env_token, valueFrom: {secretKeyRef: {name: run-creds, key: env_token}}}\n"+
			"  backendConfigsFrom:\n    - {kind: Secret, name: run-creds, keys: [workspace_dir]}\n  writeOutputsToSecret:")
	testkit.WriteFile(t, filepath.Join(base, "terraform", "env.tf"), "variable \"env_token\" {\n  type      = string\n  sensitive = true\n}\n\nresource \"terraform_data\" \"env\" {\n  input = var.env_token\n}\n")
}

// inputSentinel is the value of a Secret that only --inputs gives, which
// base reads through spec.varsFrom.
const inputSentinel = "SENTINEL-INPUT-api-key"

// withInputSecret makes base of a copy of testdata/layered read, through
// spec.varsFrom, Secret api-creds into a sensitive variable it uses: a
// Secret the repository does not hold, which External Secrets would make
// in the cluster. It returns a directory of manifests for --inputs that
// holds it (api_key: inputSentinel), outside the repository.
func withInputSecret(t *testing.T, root string) string {
	t.Helper()
	inputs := t.TempDir()
	testkit.WriteFile(t, filepath.Join(inputs, "api-creds.yaml"), "apiVersion: v1\nkind: Secret\nmetadata: {name: api-creds, namespace: flux-system}\nstringData: {api_key: "+inputSentinel+"}\n")
	testkit.EditFile(t, root, "flux-apps/platform-stacks/base/terraform.yaml", "  writeOutputsToSecret:",
		"  varsFrom:\n    - {kind: Secret, name: api-creds}\n  writeOutputsToSecret:")
	testkit.WriteFile(t, filepath.Join(root, "flux-apps", "platform-stacks", "base", "terraform", "input.tf"), "variable \"api_key\" {\n  type      = string\n  sensitive = true\n}\n\nresource \"terraform_data\" \"api\" {\n  input = var.api_key\n}\n")
	return inputs
}

// runnerVarFile is the file of variables strata writes in a stack's
// workspace for tofu.
const runnerVarFile = "strata.tfvars.json"

// withSOPSSecret adds to a copy of testdata/layered a Secret encrypted
// with sops for a fresh age key, brought in by a Kustomization with
// spec.decryption, whose db_password (sopsSentinel) the stack base reads
// through postBuild.substituteFrom into a sensitive variable it uses. It
// returns the age key file, and leaves no other age key in reach.
func withSOPSSecret(t *testing.T, root string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv(decryption.EnvAgeKeyFile, "")
	t.Setenv(decryption.EnvAgeKey, "")
	sopstest.Helper(t)
	key := sopstest.NewAgeKey(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	testkit.WriteFile(t, filepath.Join(env, "platform", "secrets.yaml"), `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: secrets
  namespace: flux-system
spec:
  interval: 10m
  path: ./flux-apps/secrets
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  decryption:
    provider: sops
`)
	secrets := filepath.Join(root, "flux-apps", "secrets")
	testkit.WriteFile(t, filepath.Join(secrets, "kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - credentials.yaml\n")
	testkit.WriteFile(t, filepath.Join(secrets, "credentials.yaml"), `apiVersion: v1
kind: Secret
metadata:
  name: credentials
  namespace: flux-system
stringData:
  db_password: `+sopsSentinel+"\n")
	sopstest.EncryptFile(t, filepath.Join(secrets, "credentials.yaml"), sopstest.Recipients{Age: []string{key.Recipient}}, sopstest.KubernetesRegex)
	testkit.EditFile(t, root, "environments/acme/dev/platform/base.yaml", "      - kind: ConfigMap\n        name: init\n",
		"      - kind: ConfigMap\n        name: init\n      - kind: Secret\n        name: credentials\n")
	testkit.EditFile(t, root, "flux-apps/platform-stacks/base/terraform.yaml", "    - name: environment\n      value: ${environment}\n",
		"    - name: environment\n      value: ${environment}\n    - name: db_password\n      value: ${db_password}\n")
	testkit.EditFile(t, root, "flux-apps/platform-stacks/base/terraform/main.tf", `variable "app_version" {`,
		"variable \"db_password\" {\n  type      = string\n  sensitive = true\n}\n\nresource \"terraform_data\" \"db\" {\n  input = var.db_password\n}\n\nvariable \"app_version\" {")
	return key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))
}

// TestSensitiveSentinelNeverLeaks plants a sentinel in a sensitive output
// (base's admin_token is "SENTINEL-…") and follows it through a whole
// apply with contracts in SSM: it must reach the contract's private part,
// as a SecureString, and nowhere else. A Secret's key that base maps to a
// file (spec.fileMappings) reaches that file only. A third sentinel is the
// value of a SOPS-encrypted Secret that base reads into a sensitive
// variable: no command's output, log, report or history holds it. So it
// goes for a Secret's key in base's environment (runnerPodTemplate env),
// one in its backend settings (backendConfigsFrom), and a Secret that only
// --inputs gives, which base reads through spec.varsFrom.
func TestSensitiveSentinelNeverLeaks(t *testing.T) {
	endpoint := awstest.Moto(t)
	awstest.Env(t, "test", "test")
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	ageKey := withSOPSSecret(t, root)
	f, err := os.OpenFile(filepath.Join(env, "init.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("  contractStore: ssm\n  contractEndpoint: " + endpoint + "\n")
	f.Close()
	state := t.TempDir()
	// base maps a Secret's key to a file (spec.fileMappings): the file's
	// content is as private as a sensitive output.
	base := filepath.Join(root, "flux-apps", "platform-stacks", "base")
	testkit.WriteFile(t, filepath.Join(base, "creds.yaml"), "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {token: "+fileSentinel+"}\n")
	testkit.EditFile(t, root, "flux-apps/platform-stacks/base/kustomization.yaml", "  - terraform.yaml", "  - terraform.yaml\n  - creds.yaml")
	testkit.EditFile(t, root, "flux-apps/platform-stacks/base/terraform.yaml", "  writeOutputsToSecret:",
		"  fileMappings:\n    - {location: home, path: .creds/token, secretRef: {name: creds, key: token}}\n    - {location: workspace, path: token, secretRef: {name: creds, key: token}}\n  writeOutputsToSecret:")
	withRunSecrets(t, root)
	inputs := withInputSecret(t, root)

	var seen strings.Builder
	for _, args := range [][]string{
		{"validate", env, "-v"},
		{"validate", env, "-o", "json"},
		{"graph", env, "-o", "json"},
		{"apply", env, "--tofu", tofutest.Binary(t), "-v"},
		{"apply", env, "--tofu", tofutest.Binary(t), "-o", "json"},
		{"plan", env, "--tofu", tofutest.Binary(t), "--drift-interval", "0", "-o", "markdown"},
		{"plan", env, "--tofu", tofutest.Binary(t), "--drift-interval", "0", "-v"},
		{"plan", env, "--tofu", tofutest.Binary(t), "--drift-interval", "0", "-o", "json"},
		{"status", env},
		{"status", env, "-o", "json"},
		{"history", env},
		{"history", env, "-o", "json"},
		{"versions", env, "-o", "json"},
	} {
		out, errOut, code := strata(t, append(args, "--state-dir", state, "--sops-age-key-file", ageKey, "--inputs", inputs)...)
		if code != 0 {
			t.Fatalf("strata %q exit code = %d:\n%s\n%s", args, code, out, errOut)
		}
		seen.WriteString(out + errOut)
	}
	if strings.Contains(seen.String(), "SENTINEL") {
		t.Errorf("the sensitive sentinel appears in strata's output:\n%s", seen.String())
	}
	if !strings.Contains(seen.String(), "[base] apply complete") {
		t.Errorf("strata's output does not show base applied:\n%s", seen.String())
	}
	// Nothing in the state directory holds it but the stack's tofu
	// workspace (the variable file tofu reads and its plan, mode 0600) and
	// the state tofu writes: the history, the reports and the run logs do
	// not.
	var files []string
	err = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), sopsSentinel) {
			return err
		}
		rel, _ := filepath.Rel(state, p)
		files = append(files, filepath.ToSlash(rel))
		if fi, err := d.Info(); err == nil && strings.HasPrefix(filepath.ToSlash(rel), "work/") && fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s holds the decrypted SOPS value and has mode %v, want 0600", rel, fi.Mode().Perm())
		}
		return nil
	})
	if !slices.Contains(files, "work/acme/dev/base/"+runnerVarFile) {
		t.Errorf("files holding the decrypted SOPS value = %q, want base's variable file among them: the Secret was not decrypted for base", files)
	}
	for _, f := range files {
		if !strings.HasPrefix(f, "work/acme/dev/base/") && !strings.HasPrefix(f, "state/") {
			t.Errorf("%s holds the decrypted SOPS value", f)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	// The mapped file is in base's workspace, where tofu reads it, and in
	// no log, history or held plan of the state directory.
	if b, err := os.ReadFile(filepath.Join(state, "work", "acme", "dev", "base", "token")); err != nil || string(b) != fileSentinel {
		t.Errorf("base's workspace file token = %q, %v, want the Secret's key", b, err)
	}
	// The environment's, the backend's and the input's values are in
	// base's workspace only (init keeps its backend settings there), and
	// the state tofu writes; never hashed plainly.
	err = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(state, p)
		for _, s := range []string{envSentinel, backendSentinel, inputSentinel} {
			if strings.Contains(string(b), s) && !strings.HasPrefix(filepath.ToSlash(rel), "work/acme/dev/base/") && !strings.HasPrefix(filepath.ToSlash(rel), "state/") {
				t.Errorf("%s holds %s", rel, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	assertNoPlainHash(t, state, envSentinel, inputSentinel)
	// They did reach tofu: the variables are in base's state, the input's
	// in the variable file strata wrote for tofu, the setting in the
	// backend configuration init keeps.
	for _, r := range []struct{ file, want string }{
		{filepath.Join(state, "state", "acme", "dev", "base.tfstate"), envSentinel},
		{filepath.Join(state, "state", "acme", "dev", "base.tfstate"), inputSentinel},
		{filepath.Join(state, "work", "acme", "dev", "base", runnerVarFile), inputSentinel},
		{filepath.Join(state, "work", "acme", "dev", "base", ".terraform", "terraform.tfstate"), backendSentinel},
	} {
		if b, err := os.ReadFile(r.file); err != nil || !strings.Contains(string(b), r.want) {
			t.Errorf("%s lacks %s (read: %v): it did not reach tofu", r.file, r.want, err)
		}
	}
	for _, dir := range []string{"logs", "held", "history.db"} {
		filepath.WalkDir(filepath.Join(state, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), fileSentinel) {
				t.Errorf("%s holds the mapped file's content", path)
			}
			return nil
		})
	}

	store, err := ssm.New(context.Background(), ssm.Config{Region: "eu-west-1", Endpoint: endpoint})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := store.Get(context.Background(), "/configuration/base")
	if err != nil {
		t.Fatalf("Get(/configuration/base) = %v", err)
	}
	if v, _ := doc.Private["admin_token"].(string); !strings.HasPrefix(v, "SENTINEL-") {
		t.Errorf("contract base private.admin_token = %q, want the sentinel", v)
	}
	for k, v := range doc.Public {
		if s, _ := v.(string); strings.Contains(s, "SENTINEL") {
			t.Errorf("contract base public.%s holds the sentinel", k)
		}
	}
	if typ := awstest.ParameterType(t, endpoint, "eu-west-1", "/configuration/base"); typ != "SecureString" {
		t.Errorf("parameter /configuration/base type = %s, want SecureString", typ)
	}
}

// TestSentinelNeverLeaksThroughDataPassing follows the sentinels of
// testdata/datapass (a writer's sensitive output, read through varsFrom,
// and a Secret of the repository, read through varsFrom) through an
// apply, a plan review, status, history and versions: they reach the
// readers' var files, and no output of strata. No output and no file
// holds a plain SHA-256 of a sentinel, nor of a plan that holds one: the
// plan ids strata shows and records are keyed, and none is the id an
// unkeyed hash of its plan would give.
func TestSentinelNeverLeaksThroughDataPassing(t *testing.T) {
	root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "testdata", "datapass"))
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	var seen strings.Builder
	// plans are the plan JSONs of every stack's workspace after each
	// command, as tofu show -json wrote them.
	plans := map[string][]byte{}
	for _, args := range [][]string{
		{"validate", env, "-v"},
		{"apply", env, "--tofu", tofutest.Binary(t)},
		{"apply", env, "--tofu", tofutest.Binary(t), "-o", "json"},
		{"plan", env, "--tofu", tofutest.Binary(t), "--drift-interval", "0", "-o", "markdown"},
		{"plan", env, "--tofu", tofutest.Binary(t), "--drift-interval", "0", "-o", "json"},
		{"status", env},
		{"status", env, "-o", "json"},
		{"history", env, "-o", "json"},
		{"versions", env, "-o", "json"},
		{"contracts", "consumers", env, "network-outputs", "-o", "json"},
	} {
		out, errOut, code := strata(t, append(args, "--state-dir", state)...)
		if code != 0 {
			t.Fatalf("strata %q exit code = %d:\n%s\n%s", args, code, out, errOut)
		}
		seen.WriteString(out + errOut)
		files, _ := filepath.Glob(filepath.Join(state, "work", "acme", "dev", "*", "strata.plan.json"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil {
				plans[string(b)] = b
			}
		}
	}
	if strings.Contains(seen.String(), "SENTINEL") {
		t.Errorf("a sentinel appears in strata's output:\n%s", seen.String())
	}
	// No output, and no file of the state directory (the history among
	// them), holds a plain hash of a sentinel: the input hashes are keyed.
	sentinels := []string{"SENTINEL-network-token", "SENTINEL-repository-password"}
	for _, h := range plainHashes(sentinels...) {
		if strings.Contains(seen.String(), h) {
			t.Errorf("strata's output holds %s, a plain hash of a sentinel", h)
		}
	}
	assertNoPlainHash(t, state, sentinels...)
	// The plans that hold a sentinel: their unkeyed ids (and plain
	// hashes) are nowhere, and the ids recorded are keyed.
	key, err := hashkey.Load(state)
	if err != nil {
		t.Fatal(err)
	}
	keyed := map[string]bool{}
	var unkeyed []string
	for _, b := range plans {
		if !bytes.Contains(b, []byte("SENTINEL")) {
			continue
		}
		id, err := policy.UnkeyedPlanID(b)
		if err != nil {
			t.Fatalf("UnkeyedPlanID(a plan of the state directory) = %v", err)
		}
		kid, err := policy.PlanID(key, b)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		keyed[kid] = true
		unkeyed = append(unkeyed, id, strings.TrimPrefix(id, "plan-"), hex.EncodeToString(sum[:]))
	}
	if len(unkeyed) == 0 {
		t.Fatalf("no plan of the %d in the workspaces holds a sentinel: the plan ids are not put to the test", len(plans))
	}
	for _, h := range unkeyed {
		if strings.Contains(seen.String(), h) {
			t.Errorf("strata's output holds %s, an unkeyed hash of a plan that holds a sentinel", h)
		}
	}
	assertNoString(t, state, unkeyed, "an unkeyed hash of a plan that holds a sentinel")
	out, _, _ := strata(t, "history", env, "-o", "json", "--state-dir", state)
	var runs []struct {
		Stack       string `json:"stack"`
		Fingerprint string `json:"fingerprint"`
		Hashes      string `json:"hashes"`
		PlanID      string `json:"planId"`
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("strata history -o json = %v:\n%s", err, out)
	}
	if len(runs) == 0 {
		t.Fatalf("strata history -o json lists no run:\n%s", out)
	}
	ids := 0
	for _, r := range runs {
		if r.Fingerprint != "" && (!strings.HasPrefix(r.Fingerprint, "hmac-sha256:") || !strings.HasPrefix(r.Hashes, "hmac-sha256/")) {
			t.Errorf("history of %s: fingerprint %q under %q, want a keyed one", r.Stack, r.Fingerprint, r.Hashes)
		}
		if keyed[r.PlanID] {
			ids++
		}
	}
	if ids == 0 {
		t.Errorf("no run of the history records the keyed id of a plan that holds a sentinel (%v)", keyed)
	}
	files, _ := filepath.Glob(filepath.Join(state, "work", "acme", "dev", "varsfrom", "strata.tfvars.json"))
	if len(files) != 1 {
		t.Fatalf("var file of varsfrom: %v, want one", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"SENTINEL-network-token", "SENTINEL-repository-password"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("var file of varsfrom lacks %s: the sentinel did not travel", s)
		}
	}
}

// plainHashes lists the plain SHA-256 hashes of each value, raw and as a
// JSON string, whole and as strata's short hashes were: what anyone could
// brute-force a weak value from.
func plainHashes(values ...string) []string {
	var out []string
	for _, v := range values {
		for _, b := range [][]byte{[]byte(v), []byte(strconv.Quote(v))} {
			sum := sha256.Sum256(b)
			h := hex.EncodeToString(sum[:])
			out = append(out, h, h[:16])
		}
	}
	return out
}

// assertNoPlainHash fails when a file under dir holds a plain hash of
// one of values.
func assertNoPlainHash(t *testing.T, dir string, values ...string) {
	t.Helper()
	assertNoString(t, dir, plainHashes(values...), "a plain hash of a sentinel")
}

// assertNoString fails when a file under dir holds one of hashes, which
// are what.
func assertNoString(t *testing.T, dir string, hashes []string, what string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, h := range hashes {
			if bytes.Contains(b, []byte(h)) {
				t.Errorf("%s holds %s, %s", path, h, what)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
