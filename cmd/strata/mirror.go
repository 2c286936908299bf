package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/tofu"
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

` + mirrorIndent(tofu.CLIConfig("https://mirror.internal:8443/", "/var/cache/strata/plugins"), "  ") + `
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

With --upstream, 'strata mirror serve' is a pull-through cache: a provider
under registry.opentofu.org (or --upstream-hostname) that the store does not
hold is asked of the upstream registry over the Provider Registry Protocol,
checked against its signed SHA256SUMS, stored, and served from then on. With
--signing-key it is a provider registry too, which tofu and other mirrors can
install from directly.`,
	}
	cmd.AddCommand(newMirrorServeCommand(g), newMirrorAddCommand(g), newMirrorAddModuleCommand(g), newMirrorSigningKeyCommand(g))
	return cmd
}

func newMirrorServeCommand(g *globals) *cobra.Command {
	var store mirrorStoreFlags
	var addr, certFile, keyFile, tokenFile string
	var signingKeyFile, registryHostname string
	var upstream, upstreamHostname, upstreamCA, upstreamKeyFile string
	var upstreamTTL time.Duration
	cmd := &cobra.Command{
		Use:   "serve (--dir DIR | --s3-bucket B) --tls-cert FILE --tls-key FILE [--upstream HOST[:PORT]] [--signing-key FILE]",
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

Pull-through cache (--upstream). With --upstream HOST[:PORT], a registry that
speaks the Provider Registry Protocol over https (registry.opentofu.org, or
another strata mirror serving with --signing-key), the mirror stands for one
provider hostname, --upstream-hostname (registry.opentofu.org by default):
tofu asks the mirror for /registry.opentofu.org/<namespace>/<type>/..., and
the mirror asks the upstream for <namespace>/<type>. index.json lists the
upstream's versions too (kept for --upstream-ttl), <version>.json its
platforms, with the zh: hashes of its signed SHA256SUMS. The first request
for an archive the store does not hold downloads it from the upstream,
checks its SHA-256 against the upstream's SHA256SUMS and that file's
signature against the upstream's key (--upstream-key pins the keys allowed;
without it, the keys the upstream names beside each package, as tofu checks
them), stores it, and serves it; every later request is served from the
store. A package that does not match is not stored, and tofu gets a 502
saying why. Providers under any other hostname never go upstream. When the
upstream is down, what the store holds is still served.

Provider registry (--signing-key). With an OpenPGP private key (armored,
without a passphrase; 'strata mirror signing-key' makes one), the mirror also
serves the Provider Registry Protocol for the providers it holds under
--registry-hostname (registry.opentofu.org by default), and names it in
service discovery:

  GET /v1/providers/<namespace>/<type>/versions                         versions and platforms
  GET /v1/providers/<namespace>/<type>/<version>/download/<os>/<arch>   the package, its SHA-256, the signed SHA256SUMS and the public key
  GET /v1/providers/<namespace>/<type>/<version>/terraform-provider-<type>_<version>_SHA256SUMS[.sig]

so tofu installs from it with source = "<mirror host:port>/<namespace>/<type>",
and other strata mirrors can use it as their --upstream. The SHA256SUMS lists
every archive held of a version; its detached signature is binary, as tofu
expects.

serve runs until it is interrupted (SIGINT, SIGTERM), then lets downloads in
flight finish.`,
		Example: `  # serve ./mirror on port 8443 of this machine
  strata mirror serve --dir ./mirror --addr 127.0.0.1:8443 \
    --tls-cert mirror.pem --tls-key mirror-key.pem

  # serve a bucket, and accept uploads
  strata mirror serve --s3-bucket acme-tofu-mirror --s3-prefix mirror/ --s3-region eu-west-1 \
    --addr 0.0.0.0:8443 --tls-cert mirror.pem --tls-key mirror-key.pem --upload-token-file token

  # a pull-through cache of registry.opentofu.org, in a bucket
  strata mirror serve --s3-bucket acme-tofu-mirror --addr 0.0.0.0:8443 \
    --tls-cert mirror.pem --tls-key mirror-key.pem --upstream registry.opentofu.org

  # the org's central registry, and a cache in each network that pulls through from it
  strata mirror signing-key central-key.asc > central-key.pub
  strata mirror serve --dir /srv/registry --addr 0.0.0.0:8443 --tls-cert c.pem --tls-key c-key.pem \
    --signing-key central-key.asc --upstream registry.opentofu.org
  strata mirror serve --dir /srv/cache --addr 0.0.0.0:8443 --tls-cert m.pem --tls-key m-key.pem \
    --upstream registry.internal:8443 --upstream-ca ca.pem --upstream-key central-key.pub

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
			opts := mirror.Options{Logger: g.logger(), RegistryHostname: registryHostname, UpstreamTTL: upstreamTTL}
			if tokenFile != "" {
				token, err := readUploadToken(tokenFile)
				if err != nil {
					return &exitError{code: 2, msg: name + ": " + err.Error()}
				}
				opts.UploadToken = token
			}
			if err := mirrorUpstreamOptions(cmd, &opts, upstream, upstreamHostname, upstreamCA, upstreamKeyFile); err != nil {
				return &exitError{code: 2, msg: name + ": " + err.Error()}
			}
			if signingKeyFile != "" {
				key, err := readSigningKey(signingKeyFile)
				if err != nil {
					return &exitError{code: 2, msg: name + ": " + err.Error()}
				}
				opts.SigningKey = key
			} else if cmd.Flags().Changed("registry-hostname") {
				return &exitError{code: 2, msg: name + ": --registry-hostname needs --signing-key"}
			}
			if err := opts.Check(); err != nil {
				return &exitError{code: 2, msg: name + ": " + err.Error()}
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
			registry := "off (no --signing-key)"
			if opts.SigningKey != nil {
				registry = fmt.Sprintf("on, %s providers, SHA256SUMS signed by key %s", cmp.Or(opts.RegistryHostname, mirror.DefaultHostname), opts.SigningKey.KeyID())
			}
			pull := "off"
			if opts.Upstream != "" {
				pull = fmt.Sprintf("%s providers from https://%s/", cmp.Or(opts.UpstreamHostname, mirror.DefaultHostname), opts.Upstream)
			}
			fmt.Fprintf(g.stdout, "serving the provider mirror and module registry %s on %s\nuploads: %s\nprovider registry: %s\npull-through: %s\n",
				st.Location(), url, uploads, registry, pull)
			return mirror.NewServer(st, opts).ServeTLS(ctx, ln, certFile, keyFile)
		},
	}
	store.register(cmd)
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8443", "host:port to listen on")
	f.StringVar(&certFile, "tls-cert", "", "PEM certificate (chain) the server presents (required)")
	f.StringVar(&keyFile, "tls-key", "", "PEM private key of the certificate (required)")
	f.StringVar(&tokenFile, "upload-token-file", "", "file holding the bearer token that allows PUT uploads")
	f.StringVar(&signingKeyFile, "signing-key", "", "OpenPGP private key (armored, no passphrase) that signs SHA256SUMS; serves the Provider Registry Protocol")
	f.StringVar(&registryHostname, "registry-hostname", "", "provider hostname in the store that the Provider Registry Protocol serves (default: registry.opentofu.org)")
	f.StringVar(&upstream, "upstream", "", "HOST[:PORT] of a registry (Provider Registry Protocol, https) to pull providers through from, e.g. registry.opentofu.org")
	f.StringVar(&upstreamHostname, "upstream-hostname", "", "provider hostname the upstream stands for (default: registry.opentofu.org)")
	f.StringVar(&upstreamCA, "upstream-ca", "", "PEM bundle of CAs to trust for the upstream, besides the system's")
	f.StringVar(&upstreamKeyFile, "upstream-key", "", "OpenPGP public key(s) the upstream's SHA256SUMS must be signed with (default: the keys the upstream names)")
	f.DurationVar(&upstreamTTL, "upstream-ttl", mirror.DefaultUpstreamTTL, "how long the upstream's version lists are kept")
	return cmd
}

// mirrorUpstreamOptions sets the pull-through options from the flags.
func mirrorUpstreamOptions(cmd *cobra.Command, opts *mirror.Options, upstream, hostname, caFile, keyFile string) error {
	if upstream == "" {
		for _, fl := range []string{"upstream-hostname", "upstream-ca", "upstream-key", "upstream-ttl"} {
			if cmd.Flags().Changed(fl) {
				return fmt.Errorf("--%s needs --upstream", fl)
			}
		}
		return nil
	}
	if err := mirror.CheckUpstream(upstream); err != nil {
		return err
	}
	opts.Upstream, opts.UpstreamHostname = upstream, hostname
	if caFile != "" {
		client, err := upstreamClient(caFile)
		if err != nil {
			return err
		}
		opts.UpstreamClient = client
	}
	if keyFile != "" {
		data, err := os.ReadFile(keyFile)
		if err != nil {
			return fmt.Errorf("read upstream key: %w", err)
		}
		keys, err := mirror.ParseKeyRing(data)
		if err != nil {
			return fmt.Errorf("read upstream key %s: %w", keyFile, err)
		}
		opts.UpstreamKeys = keys
	}
	return nil
}

// upstreamClient is an https client that trusts the CAs in caFile besides
// the system's.
func upstreamClient(caFile string) (*http.Client, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("read upstream CA: %w", err)
	}
	client, err := mirror.NewUpstreamClient(pem)
	if err != nil {
		return nil, fmt.Errorf("read upstream CA %s: %w", caFile, err)
	}
	return client, nil
}

// readSigningKey reads the signing key in path.
func readSigningKey(path string) (*mirror.SigningKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	key, err := mirror.ParseSigningKey(data)
	if err != nil {
		return nil, fmt.Errorf("read signing key %s: %w", path, err)
	}
	return key, nil
}

func newMirrorSigningKeyCommand(g *globals) *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:   "signing-key FILE",
		Short: "Make a key that signs a mirror's SHA256SUMS, for 'mirror serve --signing-key'",
		Long: `signing-key makes a new OpenPGP signing key (Ed25519, no expiry, no
passphrase) and writes its private key to FILE, which must not exist yet,
readable by its owner only. 'strata mirror serve --signing-key FILE' signs the
SHA256SUMS of the Provider Registry Protocol with it; tofu checks that
signature against the public key the registry serves beside each package.

signing-key prints the key ID and the armored public key: give it to mirrors
that pull through from this one (--upstream-key), so that they accept
packages signed by this key only.`,
		Example: `  strata mirror signing-key /etc/strata/registry-key.asc > registry-key.pub`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			const cmdName = "mirror signing-key"
			key, err := mirror.GenerateSigningKey(name)
			if err != nil {
				return fmt.Errorf("%s: %w", cmdName, err)
			}
			data, err := key.MarshalPrivate()
			if err != nil {
				return fmt.Errorf("%s: %w", cmdName, err)
			}
			f, err := os.OpenFile(args[0], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				return fmt.Errorf("%s: %w", cmdName, err)
			}
			if _, err := f.Write(data); err != nil {
				f.Close()
				return fmt.Errorf("%s: write %s: %w", cmdName, args[0], err)
			}
			if err := f.Close(); err != nil {
				return fmt.Errorf("%s: write %s: %w", cmdName, args[0], err)
			}
			fmt.Fprintf(g.stderr, "wrote the private key %s to %s\n", key.KeyID(), args[0])
			fmt.Fprint(g.stdout, key.PublicKey())
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "strata mirror", "the key's user ID")
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
