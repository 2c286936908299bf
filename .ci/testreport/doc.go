// Command testreport reads `go test -json` on its standard input and
// writes what a CI log needs: each package's result line as it ends, the
// whole output of every test that fails (and nothing of those that pass),
// then the slowest tests and the slowest packages of the run.
//
//	go test -json -race ./... 2>&1 | go run ./.ci/testreport -title 'make test'
//
// Lines that are not JSON (a build error on standard error) are passed
// through. It exits 1 when a test, a package or a build failed, so that a
// shell without pipefail still fails; -json FILE also keeps the events.
package main
