package runner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/environment"
)

func TestContractVars(t *testing.T) {
	doc := &contracts.Document{
		Public:  map[string]any{"vpc_id": "vpc-1", "count": 3.0, "tags": map[string]any{"a": "b"}},
		Private: map[string]any{"token": "t0k"},
	}
	rename := func(from, to string) environment.KeyRename { return environment.KeyRename{From: from, To: to} }
	tests := []struct {
		name    string
		cv      environment.ContractVars
		doc     *contracts.Document
		want    map[string]any
		wantErr bool
	}{
		{
			name: "every key, public and private, as the Secret's text",
			cv:   environment.ContractVars{Contract: "net"},
			doc:  doc,
			want: map[string]any{"vpc_id": "vpc-1", "count": "3", "tags": "{\n      \"a\": \"b\"\n    }", "token": "t0k"},
		},
		{
			name: "varsKeys with a rename",
			cv:   environment.ContractVars{Contract: "net", Keys: []environment.KeyRename{rename("vpc_id", "network_id"), rename("token", "token")}},
			doc:  doc,
			want: map[string]any{"network_id": "vpc-1", "token": "t0k"},
		},
		{
			name:    "a missing key",
			cv:      environment.ContractVars{Contract: "net", Field: "spec.varsFrom[0]", Keys: []environment.KeyRename{rename("nope", "nope")}},
			doc:     doc,
			wantErr: true,
		},
		{
			name: "a missing key of an optional varsFrom is empty, as in the Tofu Controller",
			cv:   environment.ContractVars{Contract: "net", Optional: true, Keys: []environment.KeyRename{rename("nope", "x")}},
			doc:  doc,
			want: map[string]any{"x": ""},
		},
		{
			name: "a missing key of an optional valueFrom sets nothing",
			cv:   environment.ContractVars{Contract: "net", Optional: true, ValueFrom: true, Keys: []environment.KeyRename{rename("nope", "x")}},
			doc:  doc,
			want: map[string]any{},
		},
		{
			name: "an optional Secret nobody writes, with varsKeys",
			cv:   environment.ContractVars{Contract: "ghost", Optional: true, Keys: []environment.KeyRename{rename("a", "b")}},
			want: map[string]any{"b": ""},
		},
		{
			name: "an optional Secret nobody writes, every key",
			cv:   environment.ContractVars{Contract: "ghost", Optional: true},
			want: map[string]any{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := contractVars("app", tt.cv, tt.doc)
			if (err != nil) != tt.wantErr {
				t.Fatalf("contractVars(%+v) error = %v, want error %v", tt.cv, err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("contractVars(%+v) mismatch (-want +got):\n%s", tt.cv, diff)
			}
		})
	}
}
