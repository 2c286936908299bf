//go:build k8s

package controller_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// tcSecret applies the stack in dir with real tofu and returns the output
// Secret data the Tofu Controller writes for what `tofu output -json`
// prints, each output old written under the name as[old]: a string
// output as its text, any other output as its value and type exactly as
// tofu printed them, the type under "<name>__type".
func tcSecret(t *testing.T, dir string, as map[string]string) map[string]string {
	t.Helper()
	bin := tofutest.Binary(t)
	work := testkit.Copy(t, dir)
	for _, args := range [][]string{{"init", "-input=false"}, {"apply", "-input=false", "-auto-approve"}} {
		cmd := exec.CommandContext(context.Background(), bin, args...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tofu %v: %v\n%s", args, err, out)
		}
	}
	cmd := exec.CommandContext(context.Background(), bin, "output", "-json")
	cmd.Dir = work
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tofu output -json: %v", err)
	}
	var outputs map[string]struct {
		Type  json.RawMessage `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(out, &outputs); err != nil {
		t.Fatalf("tofu output -json: %v", err)
	}
	data := map[string]string{}
	for old, name := range as {
		o, ok := outputs[old]
		if !ok {
			t.Fatalf("tofu output -json has no output %s", old)
		}
		if string(o.Type) == `"string"` {
			var s string
			if err := json.Unmarshal(o.Value, &s); err != nil {
				t.Fatal(err)
			}
			data[name] = s
			continue
		}
		data[name] = string(o.Value)
		data[name+"__type"] = string(o.Type)
	}
	return data
}
