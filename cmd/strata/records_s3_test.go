package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// recordsBucket starts versitygw with a bucket, points the AWS settings
// of the process at it and returns the records location
// s3://bucket/prefix.
func recordsBucket(t *testing.T) string {
	t.Helper()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	t.Setenv(stores.EnvEndpoint, endpoint)
	awstest.CreateBucket(t, endpoint, "records")
	return "s3://records/strata/prod"
}

// TestRecordsInBucket applies with the records in an S3 bucket, then
// reads and approves them from another state directory, as another
// machine does: status, history, versions and approve see the runs and
// the held plan, and the apply on the first machine applies the plan
// approved on the second.
func TestRecordsInBucket(t *testing.T) {
	loc := recordsBucket(t)
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state, other := t.TempDir(), t.TempDir()
	run := []string{"--tofu", tofutest.Binary(t), "--state-dir", state, "--records", loc}
	if _, errOut, code := strata(t, append([]string{"apply", env}, run...)...); code != 0 {
		t.Fatalf("first apply exit code = %d:\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(state, "history.db")); !os.IsNotExist(err) {
		t.Errorf("apply --records left a history.db in the state directory (%v), want the records in the bucket alone", err)
	}
	initFile := filepath.Join(env, "init.yaml")
	b, _ := os.ReadFile(initFile)
	if err := os.WriteFile(initFile, []byte(strings.Replace(string(b), `appGeneration: "1"`, `appGeneration: "2"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := strata(t, append([]string{"apply", env, "-o", "json"}, run...)...)
	if code != exitHeld {
		t.Fatalf("apply with a held plan exit code = %d, want %d:\n%s", code, exitHeld, errOut)
	}
	var rep struct {
		Stacks []struct{ Stack, Result, PlanID string } `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("apply -o json = %v:\n%s", err, out)
	}
	var id string
	for _, s := range rep.Stacks {
		if s.Stack == "app" && s.Result == "held" {
			id = s.PlanID
		}
	}
	if id == "" {
		t.Fatalf("apply -o json: app not held with a plan id:\n%s", out)
	}

	// Another machine: its own, empty state directory, the same bucket.
	there := []string{"--state-dir", other, "--records", loc}
	runCases(t, []cliCase{
		{"history", append([]string{"history", env, "app"}, there...), 0, []string{"app", "#2", "held", "#1", "applied"}, nil},
		{"status", append([]string{"status", env}, there...), 0, []string{"app", "#2 apply", "held", "variables"}, nil},
		{"versions", append([]string{"versions", env}, there...), 0, []string{"app", "1.0.0"}, nil},
		{"history without the bucket", []string{"history", env, "app", "--state-dir", other}, 1, nil, []string{"stack app of acme/dev has no runs"}},
		{"records and a cluster", append([]string{"history", env, "--namespace", "infra"}, there...), 2, nil, []string{"name two places for the records"}},
		{"not a location", []string{"history", env, "--state-dir", other, "--records", "records/strata"}, 2, nil, []string{"want s3://bucket/prefix"}},
		{"approve", append([]string{"approve", env, "app", id, "--reason", "planned replacement", "--by", "ana"}, there...), 0,
			[]string{"approved plan " + id + " of stack app by ana"}, nil},
	})

	out, errOut, code = strata(t, append([]string{"apply", env}, run...)...)
	if code != 0 || !regexp.MustCompile(`app\s+services\s+1\.0\.0\s+#3\s+applied`).MatchString(out) {
		t.Errorf("apply after the approval on the other machine = %d, want app #3 applied:\n%s\n%s", code, out, errOut)
	}
	checkRun(t, append([]string{"history", env, "app", "--limit", "1"}, there...), 0, []string{"#3", "applied"}, nil)
}
