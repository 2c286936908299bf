package jobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/local"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/runjob"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source"
)

func request(digest string, vars map[string]any) controller.Request {
	return controller.Request{
		Request: runner.Request{
			Operation: history.OperationApply, Client: "acme", Env: "dev",
			Stack:    &environment.Stack{Name: "network", Path: "stacks/network", Vars: vars},
			Artifact: source.Artifact{URL: "http://source-controller/network.tar.gz", Digest: digest, Root: "/cache/abc", Dir: "/cache/abc/stacks/network"},
		},
		Namespace: "infra", Name: "network",
	}
}

func TestRunKey(t *testing.T) {
	base := request("sha256:1", map[string]any{"cidr": "10.0.0.0/16"})
	tests := []struct {
		name string
		req  controller.Request
		same bool
	}{
		{"the same run", request("sha256:1", map[string]any{"cidr": "10.0.0.0/16"}), true},
		{"new code", request("sha256:2", map[string]any{"cidr": "10.0.0.0/16"}), false},
		{"new variables", request("sha256:1", map[string]any{"cidr": "10.1.0.0/16"}), false},
		{"a plan", func() controller.Request {
			r := request("sha256:1", map[string]any{"cidr": "10.0.0.0/16"})
			r.Operation = history.OperationPlan
			return r
		}(), false},
		{"the destroy of the deleted object", func() controller.Request {
			r := request("sha256:1", map[string]any{"cidr": "10.0.0.0/16"})
			r.Removal = &history.Run{Number: 3, Stack: "network"}
			return r
		}(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RunKey(testKey, tt.req) == RunKey(testKey, base); got != tt.same {
				t.Errorf("RunKey(%s) = %s, RunKey(base) = %s: same = %v, want %v", tt.name, RunKey(testKey, tt.req), RunKey(testKey, base), got, tt.same)
			}
		})
	}
}

// TestRunKeyIsKeyed: the same run under another key has another key, so a
// Job's name says nothing of the spec to whoever cannot read the key.
func TestRunKeyIsKeyed(t *testing.T) {
	req := request("sha256:1", map[string]any{"password": "hunter2"})
	other := []byte("fedcba9876543210fedcba9876543210")
	if a, b := RunKey(testKey, req), RunKey(other, req); a == b {
		t.Errorf("RunKey(two keys, a request) = %s and %s, want different", a, b)
	}
	// Nor is it a plain SHA-256 of what it names, nor of the private
	// value in the spec.
	stack, _ := json.Marshal(req.Stack)
	spec, _ := json.Marshal(req.Spec)
	name := RunKey(testKey, req)
	for _, b := range [][]byte{
		[]byte(fmt.Sprintf("%s\x00%s\x00%s\x00%s", req.Operation, req.Artifact.Digest, stack, spec)),
		spec, []byte("hunter2"), []byte(`"hunter2"`),
	} {
		sum := sha256.Sum256(b)
		if h := hex.EncodeToString(sum[:]); strings.Contains(h, name[strings.LastIndex(name, "-")+1:]) {
			t.Errorf("RunKey(a request) = %s, a plain SHA-256 (%s) of %q", name, h, b)
		}
	}
}

// testKey is the hash key the tests run under.
var testKey = []byte("0123456789abcdef0123456789abcdef")

func TestExecutorRequest(t *testing.T) {
	tests := []struct {
		name    string
		backend runner.StateBackend
		spec    v1alpha2.TerraformSpec
		want    runner.StateBackend
	}{
		{"the Tofu Controller's default backend", runner.StateBackend{}, v1alpha2.TerraformSpec{},
			runner.StateBackend{Kind: runner.BackendKubernetes, Namespace: "infra", SecretSuffix: "network"}},
		{"backendConfig.secretSuffix", runner.StateBackend{}, v1alpha2.TerraformSpec{BackendConfig: &v1alpha2.BackendConfigSpec{SecretSuffix: "net-prod"}},
			runner.StateBackend{Kind: runner.BackendKubernetes, Namespace: "infra", SecretSuffix: "net-prod"}},
		{"the environment's S3 backend", runner.StateBackend{Kind: runner.BackendS3, Bucket: "state"}, v1alpha2.TerraformSpec{},
			runner.StateBackend{Kind: runner.BackendS3, Bucket: "state"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := request("sha256:1", nil)
			req.Spec = tt.spec
			e := &Executor{Backend: tt.backend}
			b, err := e.request(req, nil)
			if err != nil {
				t.Fatalf("request(%s) = %v", tt.name, err)
			}
			var got runjob.Request
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.Backend); diff != "" {
				t.Errorf("request(%s) backend (-want +got):\n%s", tt.name, diff)
			}
			if got.Path != "stacks/network" || got.Run.Artifact.URL != req.Artifact.URL {
				t.Errorf("request(%s) = path %q, artifact %q, want stacks/network and %q", tt.name, got.Path, got.Run.Artifact.URL, req.Artifact.URL)
			}
		})
	}
	// The pod's run takes each stack's spec.interval as the controller does.
	b, err := (&Executor{StackIntervals: true}).request(request("sha256:1", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got runjob.Request
	if err := json.Unmarshal(b, &got); err != nil || !got.StackIntervals {
		t.Errorf("request(StackIntervals) = %v, %v, want StackIntervals carried to the pod", got.StackIntervals, err)
	}
	// So does its --no-default-policy.
	b, err = (&Executor{NoDefaultPolicy: true}).request(request("sha256:1", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	got = runjob.Request{}
	if err := json.Unmarshal(b, &got); err != nil || !got.NoDefaultPolicy {
		t.Errorf("request(NoDefaultPolicy) = %v, %v, want NoDefaultPolicy carried to the pod", got.NoDefaultPolicy, err)
	}
	local := request("sha256:1", nil)
	local.Artifact.URL = ""
	if _, err := (&Executor{}).request(local, nil); err == nil {
		t.Errorf("request(code with no URL) = nil error, want one: a runner pod cannot fetch it")
	}
}

func TestPodOf(t *testing.T) {
	no := false
	grace := int64(120)
	spec := v1alpha2.TerraformSpec{
		ServiceAccountName:                  "network-runner",
		AlwaysCleanupRunnerPod:              &no,
		RunnerTerminationGracePeriodSeconds: &grace,
	}
	spec.RunnerPodTemplate.Metadata.Labels = map[string]string{"team": "net"}
	spec.RunnerPodTemplate.Spec.Image = "mirror.local/strata:dev"
	spec.RunnerPodTemplate.Spec.ImagePullPolicy = "Never"
	spec.RunnerPodTemplate.Spec.PriorityClassName = "runners"
	spec.RunnerPodTemplate.Spec.Resources = &corev1.ResourceRequirements{}
	g := 120 * time.Second
	want := Pod{
		ServiceAccountName: "network-runner", KeepAfterRun: true, GracePeriod: &g,
		Labels: map[string]string{"team": "net"}, Image: "mirror.local/strata:dev", ImagePullPolicy: corev1.PullNever,
		PriorityClassName: "runners",
	}
	if diff := cmp.Diff(want, PodOf(spec)); diff != "" {
		t.Errorf("PodOf() (-want +got):\n%s", diff)
	}
	if got := PodOf(v1alpha2.TerraformSpec{}); got.KeepAfterRun || got.GracePeriod != nil {
		t.Errorf("PodOf(empty spec) = %+v, want the defaults: cleaned up, the default grace", got)
	}
}

// TestExecutorRecords records a Job's run in the controller's history,
// numbered there: the pod's own history went with the pod.
func TestExecutorRecords(t *testing.T) {
	ctx := context.Background()
	h, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	e := &Executor{History: h}
	for want := 1; want <= 2; want++ {
		o := controller.NewOutcome(runner.Result{Stack: "network", Run: history.Run{
			Number: 1, Client: "acme", Env: "dev", Stack: "network", Operation: history.OperationApply, Result: history.ResultApplied, Inputs: map[string]string{"cidr": "h1"},
		}}, nil)
		got, err := e.record(ctx, o)
		if err != nil || got.Result.Run.Number != want {
			t.Fatalf("record(run %d) = #%d, %v, want #%d", want, got.Result.Run.Number, err, want)
		}
	}
	last, ok, err := h.LastGood(ctx, "acme", "dev", "network")
	if err != nil || !ok || last.Number != 2 || last.Result != history.ResultApplied || last.Inputs["cidr"] != "h1" {
		t.Errorf("LastGood(network) = %+v, %v, %v, want run #2 applied with the pod's inputs", last, ok, err)
	}
	// An up-to-date stack's outcome has no run: nothing is recorded.
	if got, err := e.record(ctx, controller.NewOutcome(runner.Result{Stack: "network"}, nil)); err != nil || got.Result.Run.Number != 0 {
		t.Errorf("record(no run) = #%d, %v, want nothing recorded", got.Result.Run.Number, err)
	}
}

// TestExecutorContracts carries the contracts a stack reads from the
// controller's local store into its request, and puts the one its run
// published back: a runner pod's local store is its own.
func TestExecutorContracts(t *testing.T) {
	ctx := context.Background()
	store := local.New(t.TempDir())
	const prefix = "/configuration"
	for name, v := range map[string]string{"network": "vpc-1", "dns": "zone-1", "other": "x"} {
		if err := store.Put(ctx, contracts.Key(prefix, name), contracts.Document{Installed: true, Stack: name, Public: map[string]any{"id": v}, Private: map[string]any{}}); err != nil {
			t.Fatal(err)
		}
	}
	e := &Executor{Contracts: store, ContractPrefix: prefix}
	tests := []struct {
		name  string
		stack func(*environment.Stack)
		want  map[string]any // contract: its public id
	}{
		{"readInputsFromSecrets", func(s *environment.Stack) {
			s.Consumes = []environment.Input{{Contract: "network", As: "network"}, {Contract: "missing", As: "missing"}}
		}, map[string]any{"network": "vpc-1"}},
		{"varsFrom and valueFrom an output Secret", func(s *environment.Stack) {
			s.ContractVars = []environment.ContractVars{
				{Contract: "network", Field: "spec.varsFrom[0]"},
				{Contract: "dns", Field: "spec.vars[0].valueFrom", ValueFrom: true, Keys: []environment.KeyRename{{From: "id", To: "zone"}}},
				{Contract: "missing", Field: "spec.varsFrom[1]", Optional: true},
			}
		}, map[string]any{"network": "vpc-1", "dns": "zone-1"}},
		{"a regular expression", func(s *environment.Stack) {
			s.ConsumesMatching = []environment.MatchInput{{As: "zones", Regex: "dns"}}
		}, map[string]any{"dns": "zone-1"}},
		{"every field at once", func(s *environment.Stack) {
			s.Consumes = []environment.Input{{Contract: "network", As: "network"}}
			s.ContractVars = []environment.ContractVars{{Contract: "network", Field: "spec.varsFrom[0]"}}
			s.ConsumesMatching = []environment.MatchInput{{As: "zones", Regex: "dns"}}
		}, map[string]any{"network": "vpc-1", "dns": "zone-1"}},
		{"nothing read", func(*environment.Stack) {}, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := request("sha256:1", nil)
			tt.stack(req.Stack)
			docs, err := e.upstreams(ctx, req)
			if err != nil {
				t.Fatalf("upstreams(%s) = %v", tt.name, err)
			}
			got := map[string]any{}
			for name, d := range docs {
				got[name] = d.Public["id"]
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("upstreams(%s) (-want +got):\n%s", tt.name, diff)
			}
		})
	}

	req := request("sha256:1", nil)
	req.Stack.Consumes = []environment.Input{{Contract: "network", As: "network"}}
	req.Stack.Produces = "api"
	if err := e.publish(ctx, req, &contracts.Document{Installed: true, Stack: "network", Public: map[string]any{"url": "https://api"}, Private: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	doc, err := store.Get(ctx, contracts.Key(prefix, "api"))
	if err != nil || doc.Public["url"] != "https://api" {
		t.Errorf("published contract api = %+v, %v, want the run's", doc, err)
	}

	// A shared store (S3, SSM) is the pods' own too: nothing is carried.
	shared := &Executor{Contracts: store, ContractPrefix: prefix, Settings: environment.Settings{Contracts: environment.ContractSettings{Store: environment.ContractsS3}}}
	if docs, err := shared.upstreams(ctx, req); err != nil || docs != nil {
		t.Errorf("upstreams() with an S3 store = %v, %v, want none", docs, err)
	}
}

// TestExecutorFor checks that the Executor of a controller's runner.Config
// carries each of its settings to the runner pod's run, with the pod's
// contract store local under the controller's prefix.
func TestExecutorFor(t *testing.T) {
	store := local.New(t.TempDir())
	l := &Launcher{}
	cfg := runner.Config{
		ContractPrefix: "/configuration",
		DriftInterval:  2 * time.Hour,
		ProviderMirror: "https://mirror.example/providers/",
		StackIntervals: true,
		Contracts:      store,
		Timeout:        7 * time.Minute,
		HashKey:        []byte("key"),
	}
	got := ExecutorFor(l, cfg)
	want := &Executor{
		Launcher: l,
		Settings: environment.Settings{
			Contracts:      environment.ContractSettings{Store: environment.ContractsLocal, Prefix: "/configuration"},
			DriftInterval:  2 * time.Hour,
			ProviderMirror: "https://mirror.example/providers/",
		},
		StackIntervals: true,
		Contracts:      store,
		ContractPrefix: "/configuration",
		Timeout:        7 * time.Minute,
		HashKey:        []byte("key"),
	}
	if got.Launcher != l || got.Contracts != contracts.Store(store) {
		t.Errorf("ExecutorFor(%+v) launcher, contracts = %p, %v, want %p, %v", cfg, got.Launcher, got.Contracts, l, store)
	}
	got.Launcher, got.Contracts, want.Launcher, want.Contracts = nil, nil, nil, nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ExecutorFor(%+v) mismatch (-want +got):\n%s", cfg, diff)
	}
}
