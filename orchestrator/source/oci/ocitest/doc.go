// Package ocitest starts a real OCI registry for tests: the distribution
// registry that Debian ships as the docker-registry package, listening on a
// free loopback port with its storage in a temporary directory. Tests never
// use a fake registry. With -short (make test-unit) Start skips the test.
package ocitest
