package providermirror

import (
	"context"
	"os"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/mirror"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
)

// Serve builds the test provider at version, stores it in a mirror of a
// temporary directory, and serves that mirror over https until the test
// ends: tofu is given the server's URL and CA file (Certs.CAFile).
func Serve(t testing.TB, version string) *mirrortest.Server {
	t.Helper()
	prov := mirrortest.BuildProvider(t, version)
	store := mirror.NewStore(t.TempDir())
	zip, err := os.Open(prov.Zip)
	if err != nil {
		t.Fatal(err)
	}
	defer zip.Close()
	if err := store.Providers.Add(context.Background(), mirrortest.ProviderHostname, mirrortest.ProviderNamespace, mirrortest.ProviderType,
		prov.Version, prov.OS, prov.Arch, zip); err != nil {
		t.Fatalf("add the test provider %s to the mirror: %v", prov.Zip, err)
	}
	return mirrortest.Serve(t, mirror.NewServer(store, mirror.Options{}))
}
