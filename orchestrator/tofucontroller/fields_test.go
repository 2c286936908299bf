package tofucontroller

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// TestTerraformFields backs the table of Terraform fields (docs/terraform-fields.md): every
// field of the Tofu Controller's TerraformSpec is either honoured (no
// problem) or refused with a message; none is silently ignored.
func TestTerraformFields(t *testing.T) {
	tests := []struct {
		field string
		spec  string // the field and its value, as YAML under spec
		want  string // the problem's message; "" when honoured
	}{
		{"approvePlan", "approvePlan: auto", ""},
		{"destroy", "destroy: true", ""},
		{"destroy false", "destroy: false", ""},
		{"backendConfig customConfiguration", "backendConfig: {customConfiguration: 'backend \"local\" {}'}", ""},
		{"backendConfig disable", "backendConfig: {disable: true}", ""},
		{"backendConfig secretSuffix", "backendConfig: {secretSuffix: x}", ""},
		{"backendConfig inClusterConfig", "backendConfig: {inClusterConfig: true}", ""},
		{"backendConfig configPath", "backendConfig: {configPath: /k}", ""},
		{"backendConfig labels", "backendConfig: {labels: {a: b}}", ""},
		{"backendConfig typo", "backendConfig: {customConfig: x}", "spec.backendConfig.customConfig is not a field of the Tofu Controller's Terraform"},
		{"backendConfigsFrom", "backendConfigsFrom: [{kind: Secret, name: b, keys: [access_key], optional: true}]", ""},
		{"cloud", "cloud: {organization: o}", ""},
		{"workspace default", "workspace: default", ""},
		{"workspace", "workspace: blue", ""},
		{"workspace path", "workspace: a/b", `spec.workspace is "a/b": a tofu workspace name has only URL-safe characters and no path separators`},
		{"vars value", "vars: [{name: a, value: {b: 1}}]", ""},
		{"vars valueFrom", "vars: [{name: a, valueFrom: {secretKeyRef: {name: s, key: k}}}]", ""},
		{"varsFrom", "varsFrom: []", ""},
		{"values", "values: {a: 1}", ""},
		{"fileMappings", "fileMappings: [{location: home, path: .x, secretRef: {name: s, key: k}}]", ""},
		{"interval", "interval: 1h", ""},
		{"retryInterval", "retryInterval: 1m", ""},
		{"path", "path: ./x", ""},
		{"sourceRef", "sourceRef: {kind: GitRepository, name: flux-system}", ""},
		{"suspend", "suspend: true", ""},
		{"force", "force: true", ""},
		{"readInputsFromSecrets", "readInputsFromSecrets: [{name: n, as: n}]", ""},
		{"writeOutputsToSecret", "writeOutputsToSecret: {name: n, labels: {a: b}, annotations: {c: d}, outputs: [vpc_id]}", ""},
		{"writeOutputsToSecret renames", "writeOutputsToSecret: {name: n, outputs: ['vpc_id:id']}", ""},
		{"disableDriftDetection", "disableDriftDetection: true", ""},
		{"cliConfigSecretRef", "cliConfigSecretRef: {name: c}", ""},
		{"healthChecks", "healthChecks: [{name: h, type: tcp, address: 'a:1'}]", ""},
		{"destroyResourcesOnDeletion", "destroyResourcesOnDeletion: true", ""},
		{"serviceAccountName", "serviceAccountName: tf-runner", ""},
		{"alwaysCleanupRunnerPod", "alwaysCleanupRunnerPod: false", ""},
		{"runnerTerminationGracePeriodSeconds", "runnerTerminationGracePeriodSeconds: 60", ""},
		{"refreshBeforeApply", "refreshBeforeApply: true", ""},
		{"runnerPodTemplate", "runnerPodTemplate: {metadata: {labels: {a: b}}, spec: {image: x, resources: {}}}", ""},
		{"runnerPodTemplate env", "runnerPodTemplate: {spec: {env: [{name: A, value: b}], envFrom: [{secretRef: {name: s}}]}}", ""},
		{"runnerPodTemplate volumes", "runnerPodTemplate: {spec: {volumes: [{name: v}]}}", ""},
		{"enableInventory", "enableInventory: true", ""},
		{"tfstate", "tfstate: {forceUnlock: 'no', lockIdentifier: x}", ""},
		{"tfstate forceUnlock auto", "tfstate: {forceUnlock: auto}", ""},
		{"targets", "targets: [terraform_data.a]", ""},
		{"parallelism", "parallelism: 2", ""},
		{"parallelism negative", "parallelism: -1", "spec.parallelism is -1: it must be a whole number, 0 (tofu's default) or more"},
		{"parallelism fraction", "parallelism: 1.5", "spec.parallelism is 1.5: it must be a whole number, 0 (tofu's default) or more"},
		{"storeReadablePlan", "storeReadablePlan: json", ""},
		{"webhooks", "webhooks: [{stage: post-planning, url: 'http://x'}]", ""},
		{"dependsOn", "dependsOn: [{name: a}]", ""},
		{"enterprise", "enterprise: {a: 1}", ""},
		{"planOnly", "planOnly: true", ""},
		{"breakTheGlass", "breakTheGlass: true", ""},
		{"tfVarsFiles", "tfVarsFiles: [./stacks/app/prod.tfvars]", ""},
		{"retryStrategy", "retryStrategy: StaticInterval", ""},
		{"retryStrategy backoff", "retryStrategy: ExponentialBackoff", ""},
		{"retryStrategy unknown", "retryStrategy: Linear", "spec.retryStrategy is Linear: the Tofu Controller knows StaticInterval and ExponentialBackoff"},
		{"maxRetryInterval", "maxRetryInterval: 1h", ""},
		{"upgradeOnInit", "upgradeOnInit: true", ""},
		{"plan", "plan: {lock: true}", ""},
		{"plan without the lock", "plan: {lock: false}", ""},
		{"branchPlanner", "branchPlanner: {enablePathScope: true}", ""},
		{"remediation", "remediation: {retries: 3}", ""},
		{"tfstate lockTimeout", "tfstate: {lockTimeout: 5m}", ""},
		{"unknown field", "varsFromm: []", "spec.varsFromm is not a field of the Tofu Controller's Terraform (infra.contrib.fluxcd.io/v1alpha2)"},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			var spec map[string]any
			if err := yaml.Unmarshal([]byte(tt.spec), &spec); err != nil {
				t.Fatal(err)
			}
			for k := range spec {
				covered[k] = true
			}
			r := &testRender{}
			b := &builder{tf: &Terraform{Name: "t", File: "t.yaml", Raw: map[string]any{"spec": spec}, Spec: &Spec{}}, r: r}
			b.checkFields()
			var got string
			if ps := r.sorted(); len(ps) > 0 {
				got = ps[0].Message
			}
			if got != tt.want {
				t.Errorf("checkFields(%s) = %q, want %q", tt.spec, got, tt.want)
			}
		})
	}
	var missing []string
	for f := range terraformFields {
		if !covered[f] {
			missing = append(missing, f)
		}
	}
	sort.Strings(missing)
	if diff := cmp.Diff([]string(nil), missing); diff != "" {
		t.Errorf("fields without a test case (-want +got):\n%s", diff)
	}
}

// fieldBacking names, for every row of the table of Terraform
// fields, the tests that prove what the row says. TestTerraformFields
// backs every refusal, and every acceptance of a value; the others prove
// what strata does with the value.
var fieldBacking = map[string][]string{
	"approvePlan":                         {"TestApprovePlan", "TestPolicyGate"},
	"destroy":                             {"TestTerraformFields"},
	"backendConfig":                       {"TestTerraformFields", "TestSeedBackendConfigOnS3", "TestModuleOwnedBackend", "TestKubernetesBackend"},
	"backendConfigsFrom":                  {"TestTerraformFields", "TestBackendConfigs", "TestBackendConfigsFromOnS3"},
	"cloud":                               {"TestTerraformFields", "TestCloud", "TestModuleOwnedBackend"},
	"workspace":                           {"TestTerraformFields"},
	"vars":                                {"TestTerraformFields", "TestReconcileApply", "TestDataPassingAsTheTofuController"},
	"varsFrom":                            {"TestTerraformFields", "TestLoadMoreProblems", "TestDataPassingAsTheTofuController"},
	"values":                              {"TestTerraformFields", "TestDataPassingAsTheTofuController", "TestRender"},
	"fileMappings":                        {"TestTerraformFields"},
	"interval":                            {"TestScheduleFields", "TestStackInterval"},
	"retryInterval":                       {"TestScheduleFields", "TestRetryInterval"},
	"path":                                {"TestReconcileApply", "TestLoadProblems"},
	"sourceRef":                           {"TestReconcileApply", "TestReconcileOCISources"},
	"suspend":                             {"TestScheduleFields", "TestSuspend"},
	"force":                               {"TestTerraformFields"},
	"readInputsFromSecrets":               {"TestReconcileApply", "TestDataPassingAsTheTofuController"},
	"writeOutputsToSecret":                {"TestTerraformFields", "TestSpecChangeRepublishes", "TestRename", "TestBuildTypes", "TestSecretData", "TestEnvironmentInCluster"},
	"disableDriftDetection":               {"TestScheduleFields", "TestDisableDriftDetection"},
	"cliConfigSecretRef":                  {"TestTerraformFields", "TestCLIConfig", "TestModuleOwnedBackend"},
	"healthChecks":                        {"TestTerraformFields", "TestHealthChecks", "TestRunHealthChecks"},
	"destroyResourcesOnDeletion":          {"TestScheduleFields", "TestRemovedStack", "TestOrphanedStack"},
	"serviceAccountName":                  {"TestTerraformFields", "TestRunnerPodFieldsChangeNothing"},
	"alwaysCleanupRunnerPod":              {"TestTerraformFields", "TestRunnerPodFieldsChangeNothing"},
	"runnerTerminationGracePeriodSeconds": {"TestTerraformFields", "TestRunnerPodFieldsChangeNothing"},
	"refreshBeforeApply":                  {"TestTerraformFields"},
	"runnerPodTemplate":                   {"TestTerraformFields", "TestRunnerPodFieldsChangeNothing", "TestRunnerEnv", "TestRunnerEnvReachesTofu", "TestJobRunnerEnv", "TestVolumes", "TestVolumesReachTofu", "TestJobPodFields"},
	"enableInventory":                     {"TestTerraformFields", "TestRunnerPodFieldsChangeNothing"},
	"tfstate":                             {"TestModuleOwnedBackend", "TestScheduleFields", "TestStaleS3Lock"},
	"targets":                             {"TestTerraformFields"},
	"parallelism":                         {"TestTerraformFields"},
	"storeReadablePlan":                   {"TestRunnerPodFieldsChangeNothing", "TestContractBreakRemovedKey"},
	"webhooks":                            {"TestTerraformFields", "TestWebhooks", "TestRunWebhooks"},
	"dependsOn":                           {"TestReconcileApply"},
	"enterprise":                          {"TestTerraformFields", "TestNoteTerraform"},
	"planOnly":                            {"TestTerraformFields"},
	"breakTheGlass":                       {"TestTerraformFields", "TestNoteTerraform"},
	"tfVarsFiles":                         {"TestTerraformFields", "TestConformanceInCluster", "TestVarFiles"},
	"retryStrategy":                       {"TestTerraformFields", "TestBackoff", "TestRetryBackoff"},
	"maxRetryInterval":                    {"TestTerraformFields", "TestBackoff", "TestRetryBackoff"},
	"upgradeOnInit":                       {"TestTerraformFields", "TestNoteTerraform"},
	"plan":                                {"TestTerraformFields", "TestConformanceInCluster", "TestPlanArgs"},
	"branchPlanner":                       {"TestTerraformFields", "TestNoteTerraform"},
	"remediation":                         {"TestTerraformFields", "TestNoteTerraform"},
}

// TestEveryFieldIsBacked checks the audit of docs/terraform-fields.md: every
// TerraformSpec field has a row in its table and a test that proves it,
// and every test named in fieldBacking exists in the repository.
func TestEveryFieldIsBacked(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "docs", "terraform-fields.md"))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range testFunc.FindAllSubmatch(b, -1) {
			tests[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range slices.Sorted(maps.Keys(terraformFields)) {
		if !strings.Contains(string(readme), "\n| `"+field+"` | ") {
			t.Errorf("docs/terraform-fields.md has no row for %s", field)
		}
		names, ok := fieldBacking[field]
		if !ok || len(names) == 0 {
			t.Errorf("fieldBacking[%q] names no test", field)
		}
		for _, name := range names {
			if !tests[name] {
				t.Errorf("fieldBacking[%q] names %s, which is no test of the repository", field, name)
			}
		}
	}
	for field := range fieldBacking {
		if _, ok := terraformFields[field]; !ok {
			t.Errorf("fieldBacking names %s, which is not a field of terraformFields", field)
		}
	}
}

var testFunc = regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)
