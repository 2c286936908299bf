package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/registry-mirror/mirror"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// mirrorStoreFlags say where a mirror's store is: a directory, or an S3
// bucket.
type mirrorStoreFlags struct {
	dir       string
	s3        storage.S3Config
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
