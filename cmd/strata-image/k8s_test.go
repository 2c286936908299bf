//go:build k8s

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/k8stest"
)

// TestImageRunsInCluster builds strata's image of the binaries make build
// built (k8stest.StrataBinaries), imports it into the
// cluster's containerd and runs `strata version`, `strata-sops --help` and
// `strata controller --help` (which strata runs in strata-kube) in it as a
// Job: as a
// non-root user on a read-only root filesystem, as the manifests run it.
// It needs the cluster that `make test-k8s` starts.
func TestImageRunsInCluster(t *testing.T) {
	c := k8stest.Get(t)
	bins := k8stest.StrataBinaries(t)
	tofu := os.Getenv("STRATA_TOFU")
	if tofu == "" {
		t.Fatal("STRATA_TOFU is not set: make test-k8s sets it to bin/tofu")
	}
	tag := fmt.Sprintf("strata.local/strata:test-%d", time.Now().UnixNano())
	out := filepath.Join(t.TempDir(), "image.tar")
	if err := run([]string{"--strata", bins.Strata, "--strata-sops", bins.Sops, "--strata-kube", bins.Kube, "--tofu", tofu, "--tag", tag, "--out", out}, io.Discard); err != nil {
		t.Fatalf("build image: %v", err)
	}
	c.ImportImage(t, out)
	// The Job's own bound: the image is built and imported by now.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cs := c.Client
	ns := c.Namespace(t, "strata-image")

	yes, no := true, false
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "strata-version"},
		Spec: batchv1.JobSpec{
			BackoffLimit: new(int32),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy:                corev1.RestartPolicyNever,
				AutomountServiceAccountToken: &no,
				SecurityContext:              &corev1.PodSecurityContext{RunAsNonRoot: &yes},
				Containers: []corev1.Container{{
					Name: "strata", Image: tag, ImagePullPolicy: corev1.PullNever,
					Args: []string{"version"},
					SecurityContext: &corev1.SecurityContext{
						ReadOnlyRootFilesystem:   &yes,
						AllowPrivilegeEscalation: &no,
					},
				}, {
					Name: "strata-sops", Image: tag, ImagePullPolicy: corev1.PullNever,
					Command: []string{"/usr/local/bin/strata-sops"}, Args: []string{"--help"},
					SecurityContext: &corev1.SecurityContext{
						ReadOnlyRootFilesystem:   &yes,
						AllowPrivilegeEscalation: &no,
					},
				}, {
					Name: "strata-kube", Image: tag, ImagePullPolicy: corev1.PullNever,
					Args: []string{"controller", "--help"},
					SecurityContext: &corev1.SecurityContext{
						ReadOnlyRootFilesystem:   &yes,
						AllowPrivilegeEscalation: &no,
					},
				}},
			}},
		},
	}
	if _, err := cs.BatchV1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for {
		j, err := cs.BatchV1().Jobs(ns).Get(ctx, job.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if j.Status.Succeeded > 0 || j.Status.Failed > 0 {
			if j.Status.Succeeded != 1 {
				t.Errorf("job %s: succeeded=%d failed=%d, want succeeded=1", job.Name, j.Status.Succeeded, j.Status.Failed)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s did not finish: %v", job.Name, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "job-name=" + job.Name})
	if err != nil || len(pods.Items) != 1 {
		t.Fatalf("pods of job %s = %d, %v, want 1", job.Name, len(pods.Items), err)
	}
	for container, wants := range map[string][]string{
		"strata":      {"strata ", "OpenTofu v1.10.6"},
		"strata-sops": {"strata-sops decrypts SOPS-encrypted values"},
		"strata-kube": {"--runners", "--leader-elect"},
	} {
		logs, err := cs.CoreV1().Pods(ns).GetLogs(pods.Items[0].Name, &corev1.PodLogOptions{Container: container}).DoRaw(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !bytes.Contains(logs, []byte(want)) {
				t.Errorf("log of container %s = %q, want it to contain %q", container, strings.TrimSpace(string(logs)), want)
			}
		}
	}
}
