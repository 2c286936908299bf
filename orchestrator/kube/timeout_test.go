package kube

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/internal/testkit"
)

// deadAPIServer writes a kubeconfig whose server accepts TCP connections
// and never answers, and returns the file and the server's URL.
func deadAPIServer(t *testing.T) (kubeconfig, server string) {
	t.Helper()
	server = "http://" + testkit.DeadListener(t)
	kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	body := "apiVersion: v1\nkind: Config\nclusters:\n- name: dead\n  cluster:\n    server: " + server + "\ncontexts:\n- name: dead\n  context:\n    cluster: dead\n    user: dead\ncurrent-context: dead\nusers:\n- name: dead\n  user:\n    token: t\n"
	if err := os.WriteFile(kubeconfig, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return kubeconfig, server
}

// TestKubeTimeout asks an API server that never answers: the controller's
// client and the inputs of --kubeconfig each give up at --kube-timeout,
// naming the URL and the deadline.
func TestKubeTimeout(t *testing.T) {
	kubeconfig, server := deadAPIServer(t)
	prev := deadline.SetKube(300 * time.Millisecond)
	t.Cleanup(func() { deadline.SetKube(prev) })
	for _, tc := range []struct {
		name string
		call func(ctx context.Context) error
		url  string
	}{
		{"controller client", func(ctx context.Context) error {
			c, err := New(kubeconfig)
			if err != nil {
				return err
			}
			_, err = c.Terraforms(ctx, "flux-system")
			return err
		}, server + "/apis/infra.contrib.fluxcd.io/v1alpha2/namespaces/flux-system/terraforms"},
		{"--kubeconfig inputs", func(ctx context.Context) error {
			in, err := NewInputs(kubeconfig, "")
			if err != nil {
				return err
			}
			_, _, err = in.Get(ctx, "Secret", "flux-system", "vpc")
			return err
		}, server + "/api/v1/namespaces/flux-system/secrets/vpc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			err := tc.call(t.Context())
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("%s took %v, want about 300ms", tc.name, took)
			}
			if err == nil || !strings.Contains(err.Error(), tc.url) || !strings.Contains(err.Error(), "no answer within 300ms") || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s = %v, want an error naming %s and 300ms", tc.name, err, tc.url)
			}
		})
	}
}
