package mirrortest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Certs are a self-signed CA and a server certificate it signed, as PEM
// files in one directory.
type Certs struct {
	// CAFile is the CA certificate: what SSL_CERT_FILE points at.
	CAFile string
	// CertFile and KeyFile are the server's certificate and key.
	CertFile, KeyFile string
	// Pool holds the CA, for Go clients.
	Pool *x509.CertPool
}

// DefaultHosts are the names the server certificate is for when none are
// given.
var DefaultHosts = []string{"127.0.0.1", "::1", "localhost"}

// TLS makes a CA and a server certificate for [DefaultHosts] in a
// temporary directory of the test.
func TLS(t testing.TB) Certs {
	t.Helper()
	c, err := NewCerts(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// NewCerts makes a CA and a server certificate for hosts (IP addresses or
// DNS names; [DefaultHosts] when none are given), valid for a day, and
// writes them to dir as ca.pem, server.pem and server-key.pem.
func NewCerts(dir string, hosts ...string) (Certs, error) {
	if len(hosts) == 0 {
		hosts = DefaultHosts
	}
	fail := func(err error) (Certs, error) {
		return Certs{}, fmt.Errorf("make test certificates in %s: %w", dir, err)
	}
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fail(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "strata test CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return fail(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return fail(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fail(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: hosts[0]},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return fail(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return fail(err)
	}
	c := Certs{
		CAFile:   filepath.Join(dir, "ca.pem"),
		CertFile: filepath.Join(dir, "server.pem"),
		KeyFile:  filepath.Join(dir, "server-key.pem"),
		Pool:     x509.NewCertPool(),
	}
	c.Pool.AddCert(ca)
	files := []struct {
		path, typ string
		der       []byte
		perm      os.FileMode
	}{
		{c.CAFile, "CERTIFICATE", caDER, 0o644},
		{c.CertFile, "CERTIFICATE", der, 0o644},
		{c.KeyFile, "PRIVATE KEY", keyDER, 0o600},
	}
	for _, f := range files {
		if err := os.WriteFile(f.path, pem.EncodeToMemory(&pem.Block{Type: f.typ, Bytes: f.der}), f.perm); err != nil {
			return fail(err)
		}
	}
	return c, nil
}

// Client returns an https client that trusts only the CA.
func (c Certs) Client() *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: c.Pool}}}
}
