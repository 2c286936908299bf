package mirror

import (
	"bytes"
	"context"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/mirror/mirrortest"
)

const (
	testHost = "registry.opentofu.org"
	testNS   = "strata-iac"
	testType = "strata"
)

// providerZip is a minimal provider package for testType: its executable
// and a license, the body making each version's archive different.
func providerZip(t *testing.T, body string) []byte {
	t.Helper()
	return mirrortest.Zip(t,
		mirrortest.File{Name: "terraform-provider-" + testType + "_v" + body, Mode: 0o755, Body: body},
		mirrortest.File{Name: "LICENSE", Body: "MPL-2.0"},
	)
}

// add stores a minimal package of testType at version for os_arch.
func add(t *testing.T, s *Store, version, os, arch string) {
	t.Helper()
	if err := s.AddProvider(context.Background(), testHost, testNS, testType, version, os, arch,
		bytes.NewReader(providerZip(t, version))); err != nil {
		t.Fatalf("AddProvider(%s %s_%s) = %v, want nil", version, os, arch, err)
	}
}
