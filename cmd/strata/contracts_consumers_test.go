package main

import (
	"path/filepath"
	"testing"
)

func TestContractsConsumers(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	const (
		app    = "flux-apps/service-stacks/app/terraform/main.tf"
		report = "flux-apps/service-stacks/report/terraform/main.tf"
	)
	tests := []contractsCase{
		{
			name: "every reader of a contract",
			args: []string{"contracts", "consumers", env, "net"},
			wantRows: [][]string{
				{"STACK", "READS", "WHERE"},
				{"cluster", "net.public.vpc_id", "flux-apps/platform-stacks/cluster/terraform/main.tf:20"},
				{"report", "net.*", report + ":27"},
				{"report", "net.public.vpc_id", report + ":22"},
			},
		},
		{
			name:     "one key, by the contract's key",
			args:     []string{"contracts", "consumers", env, "/configuration/cluster", "--key", "public.vpc_id"},
			wantRows: [][]string{{"app", "cluster.public.vpc_id", app + ":31"}},
		},
		{
			name:    "a key nobody reads",
			args:    []string{"contracts", "consumers", env, "cluster", "--key", "endpoint"},
			wantOut: []string{"no stack of acme/dev reads key endpoint of contract cluster"},
		},
		{
			name:    "json",
			args:    []string{"contracts", "consumers", env, "base", "-o", "json"},
			wantOut: []string{`"contract": "base"`, `"stack": "report"`, `"line": 27`},
		},
		{
			name:     "no contract",
			args:     []string{"contracts", "consumers", env, "/"},
			wantCode: 2,
			wantErr:  []string{`consumers: "/" names no contract`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}
}
