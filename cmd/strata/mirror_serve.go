package main

import (
	"cmp"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/registry-mirror/mirror"
	"github.com/strata-iac/strata/registry-mirror/providers"
)

func newMirrorServeCommand(g *globals) *cobra.Command {
	var store mirrorStoreFlags
	var addr, certFile, keyFile, tokenFile string
	var signingKeyFile, registryHostname string
	var upstream, upstreamHostname, upstreamCA, upstreamKeyFile string
	var upstreamTTL, upstreamTimeout time.Duration
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
			if upstreamTimeout <= 0 {
				return &exitError{code: 2, msg: fmt.Sprintf("%s: --upstream-timeout %s: want a duration above zero, such as 60s", name, upstreamTimeout)}
			}
			opts := mirror.Options{Logger: g.logger(), RegistryHostname: registryHostname, UpstreamTTL: upstreamTTL, UpstreamTimeout: upstreamTimeout}
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
				registry = fmt.Sprintf("on, %s providers, SHA256SUMS signed by key %s", cmp.Or(opts.RegistryHostname, providers.DefaultHostname), opts.SigningKey.KeyID())
			}
			pull := "off"
			if opts.Upstream != "" {
				pull = fmt.Sprintf("%s providers from https://%s/", cmp.Or(opts.UpstreamHostname, providers.DefaultHostname), opts.Upstream)
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
	f.DurationVar(&upstreamTTL, "upstream-ttl", providers.DefaultUpstreamTTL, "how long the upstream's version lists are kept")
	f.DurationVar(&upstreamTimeout, "upstream-timeout", providers.DefaultUpstreamTimeout, "how long a request to the upstream may wait for its answer to start (a package then downloads as long as it takes)")
	return cmd
}

// mirrorUpstreamOptions sets the pull-through options from the flags.
func mirrorUpstreamOptions(cmd *cobra.Command, opts *mirror.Options, upstream, hostname, caFile, keyFile string) error {
	if upstream == "" {
		for _, fl := range []string{"upstream-hostname", "upstream-ca", "upstream-key", "upstream-ttl", "upstream-timeout"} {
			if cmd.Flags().Changed(fl) {
				return fmt.Errorf("--%s needs --upstream", fl)
			}
		}
		return nil
	}
	if err := providers.CheckUpstream(upstream); err != nil {
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
		keys, err := providers.ParseKeyRing(data)
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
	client, err := providers.NewUpstreamClient(pem)
	if err != nil {
		return nil, fmt.Errorf("read upstream CA %s: %w", caFile, err)
	}
	return client, nil
}

// readSigningKey reads the signing key in path.
func readSigningKey(path string) (*providers.SigningKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	key, err := providers.ParseSigningKey(data)
	if err != nil {
		return nil, fmt.Errorf("read signing key %s: %w", path, err)
	}
	return key, nil
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
