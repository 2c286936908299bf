package certpool

import "crypto/x509"

// WithPEM returns the system's roots (none when the system has no pool)
// with the certificates of the PEM bundle added. It reports false when
// the bundle holds no certificate.
func WithPEM(pem []byte) (*x509.CertPool, bool) {
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	return pool, pool.AppendCertsFromPEM(pem)
}
