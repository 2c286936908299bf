//go:build kube

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestControllerHealthAddr: an address strata controller cannot listen on
// for its probes is an error naming the flag, before anything runs.
func TestControllerHealthAddr(t *testing.T) {
	// A cluster that is never contacted: the listen fails first.
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	const kc = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`
	if err := os.WriteFile(kubeconfig, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, addr, want string
	}{
		{"no such address", "256.0.0.1:8081", "controller: listen on --health-addr 256.0.0.1:8081: "},
		{"no port", "127.0.0.1", "controller: listen on --health-addr 127.0.0.1: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRun(t, []string{"controller", "--kubeconfig", kubeconfig, "--namespace", "infra", "--leader-elect=false",
				"--state-dir", t.TempDir(), "--health-addr", tt.addr}, 1, nil, []string{tt.want})
		})
	}
}
