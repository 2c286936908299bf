package kube

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HashKeySecret is the Secret of a watched namespace that holds the key of
// strata's input hashes, under HashKeyField.
const (
	HashKeySecret = "strata-hash-key"
	HashKeyField  = "key"
)

// HashKey returns the key of the namespace's input hashes, from its
// HashKeySecret. When there is none it creates it with newKey, and when
// another replica created it first, reads theirs: every replica, and
// every runner pod, keys with the one key. A Secret whose key is not size
// bytes is an error that names it and the fix; it is never replaced.
func (c *Client) HashKey(ctx context.Context, ns string, size int, newKey func() ([]byte, error)) ([]byte, error) {
	secrets := c.core.CoreV1().Secrets(ns)
	s, err := secrets.Get(ctx, HashKeySecret, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		key, kerr := newKey()
		if kerr != nil {
			return nil, fmt.Errorf("create hash key Secret %s/%s: %w", ns, HashKeySecret, kerr)
		}
		want := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: HashKeySecret, Namespace: ns, Labels: map[string]string{"app.kubernetes.io/managed-by": "strata"}},
			Type:       corev1.SecretTypeOpaque,
			Data:       map[string][]byte{HashKeyField: key},
		}
		if _, err = secrets.Create(ctx, want, metav1.CreateOptions{}); err == nil {
			return key, nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return nil, fmt.Errorf("create hash key Secret %s/%s: %w", ns, HashKeySecret, err)
		}
		s, err = secrets.Get(ctx, HashKeySecret, metav1.GetOptions{})
	}
	if err != nil {
		return nil, fmt.Errorf("get hash key Secret %s/%s: %w", ns, HashKeySecret, err)
	}
	key := s.Data[HashKeyField]
	if len(key) != size {
		return nil, fmt.Errorf("hash key Secret %s/%s: %s is %d bytes, want %d: delete the Secret and strata creates a new key (every stack is then planned once more)", ns, HashKeySecret, HashKeyField, len(key), size)
	}
	return key, nil
}
