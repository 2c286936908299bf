// Package testkit holds the small helpers every package's tests share, one
// copy each: a log sink that concurrent writers and the test may use at
// once, a free loopback address for a server to listen on, a copy of a
// fixture directory the test may change, a file written in place, and a
// directory served as a gzip tarball, as source-controller serves an
// artifact.
//
// It is imported by tests and test-server packages only.
package testkit
