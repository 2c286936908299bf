// Package mirrortest has what the provider mirror's tests need and no
// test fakes: a certificate authority and a server certificate for
// 127.0.0.1, an https server on a free loopback port that records the
// requests it answers, zip and gzipped tar archives, a tiny module that
// says its version, and the real test provider, built from
// testdata/provider with terraform-plugin-framework and packed the way
// providers are published.
//
// tofu trusts the test CA through SSL_CERT_FILE, which Go's crypto/x509
// reads on Linux and the BSDs: run it with SSL_CERT_FILE=Certs.CAFile.
package mirrortest
