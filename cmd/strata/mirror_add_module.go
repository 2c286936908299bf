package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/registry-mirror/mirror"
	"github.com/strata-iac/strata/registry-mirror/modules"
)

// mirrorAddModuleResult is what `strata mirror add-module` reports.
type mirrorAddModuleResult struct {
	Module  string `json:"module"`
	Version string `json:"version"`
	Path    string `json:"path"`
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
			m, err := modules.ParseModule(module)
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
func addModuleFile(ctx context.Context, st *mirror.Store, m modules.Module, version, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("mirror add-module: %w", err)
	}
	defer f.Close()
	return st.Modules.Add(ctx, m.Namespace, m.Name, m.System, version, f)
}

// addPackedModule packs the module in dir and adds it, streaming the
// archive from the packer to the store.
func addPackedModule(ctx context.Context, st *mirror.Store, m modules.Module, version, dir string) error {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(modules.Pack(ctx, dir, pw)) }()
	err := st.Modules.Add(ctx, m.Namespace, m.Name, m.System, version, pr)
	// A store that stopped reading early must not leave the packer blocked.
	pr.CloseWithError(errors.New("mirror add-module: store stopped reading"))
	return err
}
