package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
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

// mirrorAddModuleResult is what `strata mirror add-module` reports.
type mirrorAddModuleResult struct {
	Module  string `json:"module"`
	Version string `json:"version"`
	Path    string `json:"path"`
}

// mirrorStoreFlags say where a mirror's store is: a directory, or an S3
// bucket.
type mirrorStoreFlags struct {
	dir       string
	s3        mirror.S3Config
	pathStyle bool
}

// register adds --dir and the --s3-* flags to cmd.
func (f *mirrorStoreFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.dir, "dir", "", "directory of the mirror (this or --s3-bucket is required)")
	fl.StringVar(&f.s3.Bucket, "s3-bucket", "", "S3 bucket of the mirror, instead of --dir; credentials come from the standard AWS chain")
	fl.StringVar(&f.s3.Prefix, "s3-prefix", "", "prefix of the mirror's objects in the bucket, e.g. mirror/ (default: the bucket's top level)")
	fl.StringVar(&f.s3.Region, "s3-region", "", "the bucket's region (default: AWS_REGION)")
	fl.StringVar(&f.s3.Endpoint, "s3-endpoint", "", "S3 endpoint URL, for an S3-compatible service")
	fl.BoolVar(&f.pathStyle, "s3-path-style", false, "address the bucket in the URL path, as most S3-compatible services need (default: true with --s3-endpoint)")
}

// open opens the store the flags name; name is the command, for errors.
// A usage error is an exitError with code 2.
func (f *mirrorStoreFlags) open(cmd *cobra.Command, name string) (*mirror.Store, error) {
	switch {
	case f.dir != "" && f.s3.Bucket != "":
		return nil, &exitError{code: 2, msg: name + ": give --dir or --s3-bucket, not both"}
	case f.dir != "":
		for _, fl := range []string{"s3-prefix", "s3-region", "s3-endpoint", "s3-path-style"} {
			if cmd.Flags().Changed(fl) {
				return nil, &exitError{code: 2, msg: fmt.Sprintf("%s: --%s needs --s3-bucket", name, fl)}
			}
		}
		return mirror.NewStore(f.dir), nil
	case f.s3.Bucket != "":
		cfg := f.s3
		cfg.PathStyle = cfg.Endpoint != ""
		if cmd.Flags().Changed("s3-path-style") {
			cfg.PathStyle = f.pathStyle
		}
		s, err := mirror.NewS3Store(cmd.Context(), cfg)
		if err != nil {
			return nil, &exitError{code: 2, msg: name + ": " + err.Error()}
		}
		return s, nil
	default:
		return nil, nil
	}
}

func newMirrorCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mirror",
		Short: "Serve providers and modules to tofu from a directory or an S3 bucket",
		Long: `The mirror keeps provider packages and private modules in a directory or an S3
bucket and serves them to tofu over https: providers over the Provider Network
Mirror Protocol, so that runs install them from it instead of the public
registry and a shared plugin cache makes later runs download nothing; modules
over the Module Registry Protocol, with semantic versions.

The store has the layout 'tofu providers mirror DIR' writes, plus the modules:

  <hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip
  modules/<namespace>/<name>/<system>/<version>.tar.gz

so such a directory, copied into an air-gapped network, is served as it is.
'strata mirror add' and 'strata mirror add-module' put more in it. Point tofu
at the provider mirror with this CLI configuration (TF_CLI_CONFIG_FILE):

` + mirrorIndent(mirror.CLIConfig("https://mirror.internal:8443/", "/var/cache/strata/plugins"), "  ") + `
A network_mirror block without include rules serves every provider,
including those whose source names no host (source = "hashicorp/aws" is
registry.opentofu.org/hashicorp/aws). tofu only uses a mirror over https and
checks its certificate; for a private CA, run tofu with SSL_CERT_FILE set to
a bundle that holds it. Keep each working directory's .terraform.lock.hcl:
with it, an init links a cached provider and only asks the mirror for its
index.json.

A module needs no configuration: its source names the mirror's host and port,

  module "network" {
    source  = "mirror.internal:8443/acme/network/aws"
    version = "~> 1.2"
  }

Pulling through from an upstream registry is not implemented yet.`,
	}
	cmd.AddCommand(newMirrorServeCommand(g), newMirrorAddCommand(g), newMirrorAddModuleCommand(g))
	return cmd
}

func newMirrorServeCommand(g *globals) *cobra.Command {
	var store mirrorStoreFlags
	var addr, certFile, keyFile, tokenFile string
	cmd := &cobra.Command{
		Use:   "serve (--dir DIR | --s3-bucket B) --tls-cert FILE --tls-key FILE",
		Short: "Serve a mirror's providers and modules over https",
		Long: `serve answers the Provider Network Mirror Protocol and the Module Registry
Protocol for what the store holds, a directory (--dir) or an S3 bucket
(--s3-bucket, with credentials from the standard AWS chain):

  GET /<hostname>/<namespace>/<type>/index.json      the versions of a provider
  GET /<hostname>/<namespace>/<type>/<version>.json  the archives of a version, with their h1: and zh: hashes
  GET /<hostname>/<namespace>/<type>/<archive>.zip   an archive
  GET /.well-known/terraform.json                    service discovery: modules.v1 is /v1/modules/
  GET /v1/modules/<namespace>/<name>/<system>/versions            the versions of a module
  GET /v1/modules/<namespace>/<name>/<system>/<version>/download  where its archive is (X-Terraform-Get)
  GET /v1/modules/<namespace>/<name>/<system>/<version>.tar.gz    the archive

The indexes are computed from the archives present, so a package is served
as soon as it is in the store; archives on S3 are streamed through the
server. With --upload-token-file, a PUT of an archive's path with
"Authorization: Bearer <token>" adds it, as 'strata mirror add' and
'strata mirror add-module' do; an archive once published never changes (a
different upload is 409). Without it, PUT is 405.

serve runs until it is interrupted (SIGINT, SIGTERM), then lets downloads in
flight finish.`,
		Example: `  # serve ./mirror on port 8443 of this machine
  strata mirror serve --dir ./mirror --addr 127.0.0.1:8443 \
    --tls-cert mirror.pem --tls-key mirror-key.pem

  # serve a bucket, and accept uploads
  strata mirror serve --s3-bucket acme-tofu-mirror --s3-prefix mirror/ --s3-region eu-west-1 \
    --addr 0.0.0.0:8443 --tls-cert mirror.pem --tls-key mirror-key.pem --upload-token-file token

  # upload from elsewhere
  curl --fail --cacert ca.pem -H "Authorization: Bearer $(cat token)" \
    -T terraform-provider-aws_5.31.0_linux_amd64.zip \
    https://mirror.internal:8443/registry.opentofu.org/hashicorp/aws/terraform-provider-aws_5.31.0_linux_amd64.zip
  curl --fail --cacert ca.pem -H "Authorization: Bearer $(cat token)" \
    -T network-1.2.0.tar.gz https://mirror.internal:8443/v1/modules/acme/network/aws/1.2.0.tar.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			const name = "mirror serve"
			st, err := store.open(cmd, name)
			if err != nil {
				return err
			}
			if st == nil || certFile == "" || keyFile == "" {
				return &exitError{code: 2, msg: name + ": --dir or --s3-bucket, --tls-cert and --tls-key are required"}
			}
			if store.dir != "" {
				if info, err := os.Stat(store.dir); err != nil || !info.IsDir() {
					return &exitError{code: 2, msg: fmt.Sprintf("%s: --dir %s is not a directory", name, store.dir)}
				}
			}
			opts := mirror.Options{Logger: g.logger()}
			if tokenFile != "" {
				token, err := readUploadToken(tokenFile)
				if err != nil {
					return &exitError{code: 2, msg: name + ": " + err.Error()}
				}
				opts.UploadToken = token
			}
			ctx := cmd.Context()
			if err := st.Check(ctx); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			url := "https://" + ln.Addr().String() + "/"
			uploads := "off"
			if opts.UploadToken != "" {
				uploads = "on (PUT with the bearer token)"
			}
			fmt.Fprintf(g.stdout, "serving the provider mirror and module registry %s on %s\nuploads: %s\n", st.Location(), url, uploads)
			return mirror.NewServer(st, opts).ServeTLS(ctx, ln, certFile, keyFile)
		},
	}
	store.register(cmd)
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8443", "host:port to listen on")
	f.StringVar(&certFile, "tls-cert", "", "PEM certificate (chain) the server presents (required)")
	f.StringVar(&keyFile, "tls-key", "", "PEM private key of the certificate (required)")
	f.StringVar(&tokenFile, "upload-token-file", "", "file holding the bearer token that allows PUT uploads")
	return cmd
}

func newMirrorAddCommand(g *globals) *cobra.Command {
	var store mirrorStoreFlags
	var provider, version, goos, arch string
	cmd := &cobra.Command{
		Use:   "add (--dir DIR | --s3-bucket B) --provider ADDRESS [--version V --os OS --arch ARCH] ZIP",
		Short: "Add a provider package to a mirror",
		Long: `add stores ZIP, a provider package as the registry publishes it, in the mirror
(a directory, or an S3 bucket) as version V of the provider at ADDRESS for
OS and ARCH. When ZIP's file name is the published one,
terraform-provider-<type>_<version>_<os>_<arch>.zip, --version, --os and
--arch default to what it says.

The zip must hold the provider's executable, terraform-provider-<type>
or terraform-provider-<type>_*, at its top level. The write is atomic, and a
published archive never changes: adding the same file again does nothing,
adding a different one for the same version and platform is an error, since
lock files pin archives by hash. add prints the h1: and zh: hashes tofu will
record in .terraform.lock.hcl; they are kept beside the archive, in
<archive>.zip.hashes.`,
		Example: `  # a package downloaded on a connected machine, for the air-gapped mirror
  strata mirror add --dir ./mirror --provider registry.opentofu.org/hashicorp/aws \
    terraform-provider-aws_5.31.0_linux_amd64.zip

  # a package built in house, named explicitly, into a bucket
  strata mirror add --s3-bucket acme-tofu-mirror --s3-prefix mirror/ --provider registry.opentofu.org/acme/cloud \
    --version 0.1.0 --os linux --arch amd64 ./dist/cloud.zip -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			const name = "mirror add"
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			zipPath := args[0]
			st, err := store.open(cmd, name)
			if err != nil {
				return err
			}
			if st == nil || provider == "" {
				return &exitError{code: 2, msg: name + ": --dir or --s3-bucket, and --provider are required"}
			}
			p, err := mirror.ParseProvider(provider)
			if err != nil {
				return &exitError{code: 2, msg: name + ": " + err.Error()}
			}
			if v, o, a, ok := mirror.ParseArchiveName(p.Type, filepath.Base(zipPath)); ok {
				version, goos, arch = cmp.Or(version, v), cmp.Or(goos, o), cmp.Or(arch, a)
			}
			for _, f := range []struct{ name, value string }{{"--version", version}, {"--os", goos}, {"--arch", arch}} {
				if f.value == "" {
					return &exitError{code: 2, msg: fmt.Sprintf("%s: %s is required: %s is not named terraform-provider-%s_<version>_<os>_<arch>.zip", name, f.name, zipPath, p.Type)}
				}
			}
			zf, err := os.Open(zipPath)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			defer zf.Close()
			ctx := cmd.Context()
			if err := st.AddProvider(ctx, p.Hostname, p.Namespace, p.Type, version, goos, arch, zf); err != nil {
				return err
			}
			archives, err := st.Archives(ctx, p.Hostname, p.Namespace, p.Type, version)
			if err != nil {
				return err
			}
			platform := mirror.Platform(strings.ToLower(goos), strings.ToLower(arch))
			a := archives[platform]
			res := mirrorAddResult{
				Provider: p.String(),
				Version:  version,
				Platform: platform,
				Path:     st.Location(p.Hostname, p.Namespace, p.Type, a.URL),
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
	store.register(cmd)
	f := cmd.Flags()
	f.StringVar(&provider, "provider", "", "provider source address, hostname/namespace/type or namespace/type on registry.opentofu.org (required)")
	f.StringVar(&version, "version", "", "provider version, e.g. 5.31.0 (default: from ZIP's name)")
	f.StringVar(&goos, "os", "", "target operating system, e.g. linux (default: from ZIP's name)")
	f.StringVar(&arch, "arch", "", "target architecture, e.g. amd64 (default: from ZIP's name)")
	return cmd
}

func newMirrorAddModuleCommand(g *globals) *cobra.Command {
	var store mirrorStoreFlags
	var module, version string
	cmd := &cobra.Command{
		Use:   "add-module (--dir DIR | --s3-bucket B) --module NAMESPACE/NAME/SYSTEM --version V ARCHIVE_OR_DIR",
		Short: "Add a version of a private module to a mirror",
		Long: `add-module stores version V of the module NAMESPACE/NAME/SYSTEM in the mirror
(a directory, or an S3 bucket), for the Module Registry Protocol that
'strata mirror serve' answers. V is a semantic version such as 1.2.0 or
1.3.0-rc.1. SYSTEM is the remote system the module targets, e.g. aws.

ARCHIVE_OR_DIR is a .tar.gz of the module, or the module's directory, which
is packed for you: its files and subdirectories, except those whose names
start with a dot (.terraform, .git, .terraform.lock.hcl). The module's .tf or
.tofu files must be at the top level of the archive. A published version
never changes: adding the same archive again does nothing, a different one
is an error. Packing a directory gives the same bytes as long as its files
do not change.

Stacks use the module with its registry source, the mirror's host and port
first:

  module "network" {
    source  = "mirror.internal:8443/acme/network/aws"
    version = "~> 1.2"
  }

tofu init asks https://mirror.internal:8443/.well-known/terraform.json where
the registry is, picks the highest version the constraint allows, and
downloads it. For a private CA, run tofu with SSL_CERT_FILE set to a bundle
that holds it.`,
		Example: `  # pack and add the module in ./modules/network
  strata mirror add-module --dir ./mirror --module acme/network/aws --version 1.2.0 ./modules/network

  # add a packed module to a bucket
  strata mirror add-module --s3-bucket acme-tofu-mirror --s3-prefix mirror/ \
    --module acme/network/aws --version 1.2.0 network-1.2.0.tar.gz -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			const name = "mirror add-module"
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			st, err := store.open(cmd, name)
			if err != nil {
				return err
			}
			if st == nil || module == "" || version == "" {
				return &exitError{code: 2, msg: name + ": --dir or --s3-bucket, --module and --version are required"}
			}
			m, err := mirror.ParseModule(module)
			if err != nil {
				return &exitError{code: 2, msg: name + ": " + err.Error()}
			}
			src := args[0]
			info, err := os.Stat(src)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			ctx := cmd.Context()
			if info.IsDir() {
				err = addPackedModule(ctx, st, m, version, src)
			} else {
				err = addModuleFile(ctx, st, m, version, src)
			}
			if err != nil {
				return err
			}
			res := mirrorAddModuleResult{
				Module:  m.String(),
				Version: version,
				Path:    st.Location("modules", m.Namespace, m.Name, m.System, version+".tar.gz"),
			}
			if g.output == "json" {
				return writeJSON(g.stdout, res)
			}
			fmt.Fprintf(g.stdout, "added module %s %s\n  %s\n", res.Module, res.Version, res.Path)
			fmt.Fprintf(g.stdout, "use it with:\n  source  = \"<mirror host:port>/%s\"\n  version = \"%s\"\n", res.Module, res.Version)
			return nil
		},
	}
	store.register(cmd)
	f := cmd.Flags()
	f.StringVar(&module, "module", "", "module address in the registry, namespace/name/system, e.g. acme/network/aws (required)")
	f.StringVar(&version, "version", "", "module version, e.g. 1.2.0 (required)")
	return cmd
}

// addModuleFile adds the module archive at path.
func addModuleFile(ctx context.Context, st *mirror.Store, m mirror.Module, version, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("mirror add-module: %w", err)
	}
	defer f.Close()
	return st.AddModule(ctx, m.Namespace, m.Name, m.System, version, f)
}

// addPackedModule packs the module in dir and adds it, streaming the
// archive from the packer to the store.
func addPackedModule(ctx context.Context, st *mirror.Store, m mirror.Module, version, dir string) error {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(mirror.PackModule(ctx, dir, pw)) }()
	err := st.AddModule(ctx, m.Namespace, m.Name, m.System, version, pr)
	// A store that stopped reading early must not leave the packer blocked.
	pr.CloseWithError(errors.New("mirror add-module: store stopped reading"))
	return err
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
