package certpool

import (
	"crypto/x509"
	"encoding/pem"
	"net/http/httptest"
	"testing"
)

// TestWithPEM: a bundle's certificate is added to the system's roots; a
// bundle without one is reported.
func TestWithPEM(t *testing.T) {
	srv := httptest.NewTLSServer(nil)
	defer srv.Close()
	bundle := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	pool, ok := WithPEM(bundle)
	if !ok {
		t.Fatalf("WithPEM(a certificate) = false, want true")
	}
	if _, err := srv.Certificate().Verify(x509.VerifyOptions{Roots: pool, DNSName: "example.com"}); err != nil {
		t.Errorf("the bundle's certificate does not verify against the pool: %v", err)
	}
	if _, ok := WithPEM([]byte("not a certificate")); ok {
		t.Errorf("WithPEM(no certificate) = true, want false")
	}
}
