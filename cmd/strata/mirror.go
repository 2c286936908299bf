package main

import (
	"cmp"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/registry-mirror/mirror"
)

// mirrorAddResult is what `strata mirror add` reports.
type mirrorAddResult struct {
	Provider string   `json:"provider"`
	Version  string   `json:"version"`
	Platform string   `json:"platform"`
	Path     string   `json:"path"`
	Hashes   []string `json:"hashes"`
}

func newMirrorCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mirror",
		Short: "Serve providers to tofu from a directory, over the Provider Network Mirror Protocol",
		Long: `The provider mirror keeps provider packages in a directory and serves them to
tofu over https, so that runs install providers from it instead of the public
registry, and a shared plugin cache makes later runs download nothing.

The directory has the layout 'tofu providers mirror DIR' writes:

  DIR/<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip

so such a directory, copied into an air-gapped network, is served as it is.
'strata mirror add' puts more packages in it. Point tofu at the mirror with
this CLI configuration (TF_CLI_CONFIG_FILE):

` + mirrorIndent(mirror.CLIConfig("https://mirror.internal:8443/", "/var/cache/strata/plugins"), "  ") + `
A network_mirror block without include rules serves every provider,
including those whose source names no host (source = "hashicorp/aws" is
registry.opentofu.org/hashicorp/aws). tofu only uses a mirror over https and
checks its certificate; for a private CA, run tofu with SSL_CERT_FILE set to
a bundle that holds it. Keep each working directory's .terraform.lock.hcl:
with it, an init links a cached provider and only asks the mirror for its
index.json.

Pulling through from an upstream registry and the module registry protocol
are not implemented yet.`,
	}
	cmd.AddCommand(newMirrorServeCommand(g), newMirrorAddCommand(g))
	return cmd
}

func newMirrorServeCommand(g *globals) *cobra.Command {
	var dir, addr, certFile, keyFile, tokenFile string
	cmd := &cobra.Command{
		Use:   "serve --dir DIR --tls-cert FILE --tls-key FILE",
		Short: "Serve a directory of providers over https",
		Long: `serve answers the Provider Network Mirror Protocol for the packages in DIR:

  GET /<hostname>/<namespace>/<type>/index.json      the versions
  GET /<hostname>/<namespace>/<type>/<version>.json  the archives of a version, with their h1: and zh: hashes
  GET /<hostname>/<namespace>/<type>/<archive>.zip   an archive

The indexes are computed from the archives present, so a package is served
as soon as it is in DIR. With --upload-token-file, a PUT of an archive's path
with "Authorization: Bearer <token>" adds it, as 'strata mirror add' does;
an archive once published never changes (a different upload is 409).
Without it, PUT is 405.

serve runs until it is interrupted (SIGINT, SIGTERM), then lets downloads in
flight finish.`,
		Example: `  # serve ./providers on port 8443 of this machine
  strata mirror serve --dir ./providers --addr 127.0.0.1:8443 \
    --tls-cert mirror.pem --tls-key mirror-key.pem

  # also accept uploads
  strata mirror serve --dir ./providers --addr 0.0.0.0:8443 \
    --tls-cert mirror.pem --tls-key mirror-key.pem --upload-token-file token

  # upload from elsewhere
  curl --fail --cacert ca.pem -H "Authorization: Bearer $(cat token)" \
    -T terraform-provider-aws_5.31.0_linux_amd64.zip \
    https://mirror.internal:8443/registry.opentofu.org/hashicorp/aws/terraform-provider-aws_5.31.0_linux_amd64.zip`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" || certFile == "" || keyFile == "" {
				return &exitError{code: 2, msg: "mirror serve: --dir, --tls-cert and --tls-key are required"}
			}
			if info, err := os.Stat(dir); err != nil || !info.IsDir() {
				return &exitError{code: 2, msg: fmt.Sprintf("mirror serve: --dir %s is not a directory", dir)}
			}
			opts := mirror.Options{Logger: g.logger()}
			if tokenFile != "" {
				token, err := readUploadToken(tokenFile)
				if err != nil {
					return &exitError{code: 2, msg: "mirror serve: " + err.Error()}
				}
				opts.UploadToken = token
			}
			ln, err := (&net.ListenConfig{}).Listen(cmd.Context(), "tcp", addr)
			if err != nil {
				return fmt.Errorf("mirror serve: %w", err)
			}
			url := "https://" + ln.Addr().String() + "/"
			uploads := "off"
			if opts.UploadToken != "" {
				uploads = "on (PUT with the bearer token)"
			}
			fmt.Fprintf(g.stdout, "serving the provider mirror %s on %s\nuploads: %s\n", dir, url, uploads)
			return mirror.NewServer(mirror.NewStore(dir), opts).ServeTLS(cmd.Context(), ln, certFile, keyFile)
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "dir", "", "directory of provider packages (required)")
	f.StringVar(&addr, "addr", "127.0.0.1:8443", "host:port to listen on")
	f.StringVar(&certFile, "tls-cert", "", "PEM certificate (chain) the server presents (required)")
	f.StringVar(&keyFile, "tls-key", "", "PEM private key of the certificate (required)")
	f.StringVar(&tokenFile, "upload-token-file", "", "file holding the bearer token that allows PUT uploads")
	return cmd
}

func newMirrorAddCommand(g *globals) *cobra.Command {
	var dir, provider, version, goos, arch string
	cmd := &cobra.Command{
		Use:   "add --dir DIR --provider ADDRESS [--version V --os OS --arch ARCH] ZIP",
		Short: "Add a provider package to a mirror directory",
		Long: `add stores ZIP, a provider package as the registry publishes it, in the mirror
directory DIR as version V of the provider at ADDRESS for OS and ARCH. When
ZIP's file name is the published one,
terraform-provider-<type>_<version>_<os>_<arch>.zip, --version, --os and
--arch default to what it says.

The zip must hold the provider's executable, terraform-provider-<type>
or terraform-provider-<type>_*, at its top level. The write is atomic, and a
published archive never changes: adding the same file again does nothing,
adding a different one for the same version and platform is an error, since
lock files pin archives by hash. add prints the h1: and zh: hashes tofu will
record in .terraform.lock.hcl.`,
		Example: `  # a package downloaded on a connected machine, for the air-gapped mirror
  strata mirror add --dir ./providers --provider registry.opentofu.org/hashicorp/aws \
    terraform-provider-aws_5.31.0_linux_amd64.zip

  # a package built in house, named explicitly
  strata mirror add --dir ./providers --provider registry.opentofu.org/acme/cloud \
    --version 0.1.0 --os linux --arch amd64 ./dist/cloud.zip -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			zipPath := args[0]
			if dir == "" || provider == "" {
				return &exitError{code: 2, msg: "mirror add: --dir and --provider are required"}
			}
			p, err := mirror.ParseProvider(provider)
			if err != nil {
				return &exitError{code: 2, msg: "mirror add: " + err.Error()}
			}
			if v, o, a, ok := mirror.ParseArchiveName(p.Type, filepath.Base(zipPath)); ok {
				version, goos, arch = cmp.Or(version, v), cmp.Or(goos, o), cmp.Or(arch, a)
			}
			for _, f := range []struct{ name, value string }{{"--version", version}, {"--os", goos}, {"--arch", arch}} {
				if f.value == "" {
					return &exitError{code: 2, msg: fmt.Sprintf("mirror add: %s is required: %s is not named terraform-provider-%s_<version>_<os>_<arch>.zip", f.name, zipPath, p.Type)}
				}
			}
			zf, err := os.Open(zipPath)
			if err != nil {
				return fmt.Errorf("mirror add: %w", err)
			}
			defer zf.Close()
			store := mirror.NewStore(dir)
			ctx := cmd.Context()
			if err := store.AddProvider(ctx, p.Hostname, p.Namespace, p.Type, version, goos, arch, zf); err != nil {
				return err
			}
			archives, err := store.Archives(ctx, p.Hostname, p.Namespace, p.Type, version)
			if err != nil {
				return err
			}
			platform := mirror.Platform(strings.ToLower(goos), strings.ToLower(arch))
			a := archives[platform]
			res := mirrorAddResult{
				Provider: p.String(),
				Version:  version,
				Platform: platform,
				Path:     filepath.Join(dir, p.Hostname, p.Namespace, p.Type, a.URL),
				Hashes:   a.Hashes,
			}
			if g.output == "json" {
				return writeJSON(g.stdout, res)
			}
			fmt.Fprintf(g.stdout, "added %s %s %s\n  %s\n", res.Provider, res.Version, res.Platform, res.Path)
			for _, h := range res.Hashes {
				fmt.Fprintf(g.stdout, "  %s\n", h)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "dir", "", "mirror directory (required)")
	f.StringVar(&provider, "provider", "", "provider source address, hostname/namespace/type or namespace/type on registry.opentofu.org (required)")
	f.StringVar(&version, "version", "", "provider version, e.g. 5.31.0 (default: from ZIP's name)")
	f.StringVar(&goos, "os", "", "target operating system, e.g. linux (default: from ZIP's name)")
	f.StringVar(&arch, "arch", "", "target architecture, e.g. amd64 (default: from ZIP's name)")
	return cmd
}

// readUploadToken reads a bearer token from a file, without surrounding space.
func readUploadToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read upload token: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("read upload token: %s is empty", path)
	}
	return token, nil
}

// mirrorIndent prefixes every non-empty line of s.
func mirrorIndent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}
