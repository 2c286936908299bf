package tcdata

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// outputMeta is one output of `tofu output -json`, its value and type
// kept as tofu printed them, as terraform-exec (and so the Tofu
// Controller) keeps them.
type outputMeta struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type"`
	Value     json.RawMessage `json:"value"`
}

// tofuOutputs applies testdata/outputs with real tofu and returns what
// `tofu output -json` prints.
func tofuOutputs(t *testing.T) map[string]outputMeta {
	t.Helper()
	if testing.Short() {
		t.Skip("runs tofu")
	}
	bin := tofutest.Binary(t)
	dir := testkit.Copy(t, "testdata/outputs")
	for _, args := range [][]string{{"init", "-input=false"}, {"apply", "-input=false", "-auto-approve"}} {
		cmd := exec.CommandContext(context.Background(), bin, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tofu %v: %v\n%s", args, err, out)
		}
	}
	cmd := exec.CommandContext(context.Background(), bin, "output", "-json")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tofu output -json: %v", err)
	}
	var outputs map[string]outputMeta
	if err := json.Unmarshal(out, &outputs); err != nil {
		t.Fatalf("tofu output -json: %v", err)
	}
	return outputs
}

// tcSecret is the output Secret's data the Tofu Controller writes for
// the outputs: a string as its text, anything else as the JSON tofu
// printed and its type beside it.
func tcSecret(t *testing.T, outputs map[string]outputMeta) map[string]string {
	t.Helper()
	data := map[string]string{}
	for name, o := range outputs {
		if string(o.Type) == `"string"` {
			var s string
			if err := json.Unmarshal(o.Value, &s); err != nil {
				t.Fatal(err)
			}
			data[name] = s
			continue
		}
		data[name] = string(o.Value)
		data[name+TypeSuffix] = string(o.Type)
	}
	return data
}

// SecretString writes, for a value decoded from a contract, the very
// text the Tofu Controller writes for the output tofu printed.
func TestSecretStringMatchesTofu(t *testing.T) {
	outputs := tofuOutputs(t)
	want := tcSecret(t, outputs)
	for name, o := range outputs {
		t.Run(name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal(o.Value, &v); err != nil {
				t.Fatal(err)
			}
			got, err := SecretString(v)
			if err != nil {
				t.Fatalf("SecretString(%v): %v", v, err)
			}
			if got != want[name] {
				t.Errorf("SecretString(%v) = %q, want %q", v, got, want[name])
			}
		})
	}
}

// FromSecretData decodes the Secret the Tofu Controller writes to the
// same values a contract holds, each of its type.
func TestFromSecretDataMatchesTofu(t *testing.T) {
	outputs := tofuOutputs(t)
	got, err := FromSecretData(tcSecret(t, outputs))
	if err != nil {
		t.Fatalf("FromSecretData: %v", err)
	}
	want := map[string]any{
		"vpc_id":  "vpc-123",
		"count":   3.0,
		"enabled": true,
		"subnets": []any{"a", "b"},
		"tags":    map[string]any{"team": "core", "env": "dev<&>"},
		"nested":  map[string]any{"list": []any{1.0, 2.0}, "obj": map[string]any{"k": "v"}},
		"token":   "s3cret",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FromSecretData mismatch (-want +got):\n%s", diff)
	}
}

func TestFromSecretData(t *testing.T) {
	tests := []struct {
		name    string
		data    map[string]string
		want    map[string]any
		wantErr bool
	}{
		{name: "untyped keys are strings", data: map[string]string{"a": "3", "b": `["x"]`}, want: map[string]any{"a": "3", "b": `["x"]`}},
		{name: "typed", data: map[string]string{"n": "3", "n__type": `"number"`}, want: map[string]any{"n": 3.0}},
		{name: "bad type", data: map[string]string{"n": "3", "n__type": `"nope"`}, wantErr: true},
		{name: "value not of its type", data: map[string]string{"n": `"x"`, "n__type": `"number"`}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FromSecretData(tt.data)
			if (err != nil) != tt.wantErr {
				t.Fatalf("FromSecretData(%v) error = %v, want error %v", tt.data, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("FromSecretData(%v) mismatch (-want +got):\n%s", tt.data, diff)
			}
		})
	}
}

func TestRename(t *testing.T) {
	tests := []struct {
		pattern  string
		from, to string
		wantErr  bool
	}{
		{pattern: "vpc_id", from: "vpc_id", to: "vpc_id"},
		{pattern: "vpc_id:network_id", from: "vpc_id", to: "network_id"},
		{pattern: "a:b:c", wantErr: true},
		{pattern: ":b", wantErr: true},
		{pattern: "a:", wantErr: true},
		{pattern: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			from, to, err := Rename(tt.pattern)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Rename(%q) error = %v, want error %v", tt.pattern, err, tt.wantErr)
			}
			if from != tt.from || to != tt.to {
				t.Errorf("Rename(%q) = %q, %q, want %q, %q", tt.pattern, from, to, tt.from, tt.to)
			}
		})
	}
}
