package mirrortest

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewCerts(t *testing.T) {
	tests := []struct {
		name      string
		hosts     []string
		wantIPs   []string
		wantNames []string
	}{
		{"default", nil, []string{"127.0.0.1", "::1"}, []string{"localhost"}},
		{"given", []string{"mirror.internal", "10.0.0.1"}, []string{"10.0.0.1"}, []string{"mirror.internal"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewCerts(t.TempDir(), tt.hosts...)
			if err != nil {
				t.Fatalf("NewCerts(%q) = %v, want nil", tt.hosts, err)
			}
			leaf := readCert(t, c.CertFile)
			var ips []string
			for _, ip := range leaf.IPAddresses {
				ips = append(ips, ip.String())
			}
			if diff := cmp.Diff(tt.wantIPs, ips); diff != "" {
				t.Errorf("NewCerts(%q) IP SANs mismatch (-want +got):\n%s", tt.hosts, diff)
			}
			if diff := cmp.Diff(tt.wantNames, leaf.DNSNames); diff != "" {
				t.Errorf("NewCerts(%q) DNS SANs mismatch (-want +got):\n%s", tt.hosts, diff)
			}
			// The leaf verifies against the CA file, as a client reading
			// SSL_CERT_FILE would check it.
			roots := x509.NewCertPool()
			roots.AddCert(readCert(t, c.CAFile))
			if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: tt.wantIPs[0]}); err != nil {
				t.Errorf("Verify(%s) against %s = %v, want nil", tt.wantIPs[0], c.CAFile, err)
			}
			if _, err := leaf.Verify(x509.VerifyOptions{Roots: c.Pool, DNSName: tt.wantIPs[0]}); err != nil {
				t.Errorf("Verify(%s) against Pool = %v, want nil", tt.wantIPs[0], err)
			}
			if _, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile); err != nil {
				t.Errorf("LoadX509KeyPair(%q, %q) = %v, want nil", c.CertFile, c.KeyFile, err)
			}
			if info, err := os.Stat(c.KeyFile); err != nil || info.Mode().Perm() != 0o600 {
				t.Errorf("Stat(%q) = %v, %v, want mode 0600", c.KeyFile, info, err)
			}
		})
	}
}

func TestNewCertsError(t *testing.T) {
	if _, err := NewCerts("/nonexistent/dir"); err == nil {
		t.Errorf("NewCerts(%q) = nil, want an error", "/nonexistent/dir")
	}
}

func readCert(t *testing.T, path string) *x509.Certificate {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "CERTIFICATE" {
		t.Fatalf("pem.Decode(%s) = %v, want a CERTIFICATE", path, block)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
