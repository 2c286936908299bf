//go:build k8s

package kube_test

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/orchestrator/kube"
)

// TestHashKeyInCluster: replicas that ask at once all get the one key of
// the namespace's Secret, created once; a Secret that holds no key is an
// error, and is left as it is.
func TestHashKeyInCluster(t *testing.T) {
	c := k8stest.Get(t)
	ns := c.Namespace(t, "strata-hashkey")
	client, err := kube.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([][]byte, 4)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := client.HashKey(t.Context(), ns, hashkey.Size, hashkey.New)
			if err != nil {
				t.Errorf("HashKey(%q) = %v", ns, err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	core, err := kubernetes.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	s, err := core.CoreV1().Secrets(ns).Get(t.Context(), kube.HashKeySecret, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Secret %s/%s: %v", ns, kube.HashKeySecret, err)
	}
	stored := s.Data[kube.HashKeyField]
	if len(stored) != hashkey.Size {
		t.Errorf("Secret %s/%s holds %d bytes, want %d", ns, kube.HashKeySecret, len(stored), hashkey.Size)
	}
	for i, k := range keys {
		if !bytes.Equal(k, stored) {
			t.Errorf("replica %d got another key than the Secret's", i)
		}
	}

	// A damaged Secret is refused, named, and kept.
	s.Data[kube.HashKeyField] = []byte("short")
	if _, err := core.CoreV1().Secrets(ns).Update(t.Context(), s, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = client.HashKey(t.Context(), ns, hashkey.Size, func() ([]byte, error) { return nil, errors.New("no new key may be made") })
	if err == nil || !strings.Contains(err.Error(), kube.HashKeySecret) || !strings.Contains(err.Error(), "delete the Secret") {
		t.Errorf("HashKey(%q) of a damaged Secret = %v, want an error naming it and the fix", ns, err)
	}
}
