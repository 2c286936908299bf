package mirrortest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// The test provider's address: source = "strata-iac/strata" in a
// required_providers block, which tofu reads as
// registry.opentofu.org/strata-iac/strata. A network_mirror without
// include rules serves every provider, so tofu asks the mirror for it.
const (
	ProviderHostname  = "registry.opentofu.org"
	ProviderNamespace = "strata-iac"
	ProviderType      = "strata"
	ProviderSource    = ProviderNamespace + "/" + ProviderType
)

// providerPackage is the Go package of the test provider.
const providerPackage = "github.com/strata-iac/strata/registry-mirror/mirrortest/testdata/provider"

// Provider is the test provider, built for this machine and packed as
// providers are published.
type Provider struct {
	// Version is the provider version, e.g. 0.1.0.
	Version string
	// OS and Arch are this machine's, e.g. linux and amd64.
	OS, Arch string
	// Zip is terraform-provider-strata_<version>_<os>_<arch>.zip, holding
	// the executable terraform-provider-strata_v<version>.
	Zip string
	// BuildTime is how long go build took.
	BuildTime time.Duration
}

// BuildProvider builds the test provider at version into a temporary
// directory of the test and packs it. It needs the go command and the
// module's dependencies; it takes seconds with a warm build cache and
// longer on a cold one. With -short it skips the test instead.
func BuildProvider(t testing.TB, version string) Provider {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the test provider; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	dir := t.TempDir()
	exe := "terraform-provider-" + ProviderType + "_v" + version
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	bin := filepath.Join(dir, exe)
	// The flags of make build (no -trimpath, no cgo), so that the plugin
	// SDK's packages it compiled (gRPC, protobuf) are linked here, not
	// compiled again.
	cmd := exec.CommandContext(t.Context(), goCmd, "build",
		"-ldflags", "-s -w -X main.version="+version, "-o", bin, providerPackage)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s = %v\n%s", providerPackage, err, out)
	}
	p := Provider{Version: version, OS: runtime.GOOS, Arch: runtime.GOARCH, BuildTime: time.Since(start)}
	body, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	name := "terraform-provider-" + ProviderType + "_" + version + "_" + p.OS + "_" + p.Arch + ".zip"
	p.Zip = ZipFile(t, dir, name, File{Name: exe, Mode: 0o755, Body: string(body)})
	return p
}
