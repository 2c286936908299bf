package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/registry-mirror/providers"
)

// mirrorAddResult is what `strata mirror add` reports.
type mirrorAddResult struct {
	Provider string   `json:"provider"`
	Version  string   `json:"version"`
	Platform string   `json:"platform"`
	Path     string   `json:"path"`
	Hashes   []string `json:"hashes"`
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
			p, err := providers.ParseProvider(provider)
			if err != nil {
				return &exitError{code: 2, msg: name + ": " + err.Error()}
			}
			if v, o, a, ok := providers.ParseArchiveName(p.Type, filepath.Base(zipPath)); ok {
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
			if err := st.Providers.Add(ctx, p.Hostname, p.Namespace, p.Type, version, goos, arch, zf); err != nil {
				return err
			}
			archives, err := st.Providers.Archives(ctx, p.Hostname, p.Namespace, p.Type, version)
			if err != nil {
				return err
			}
			platform := providers.Platform(strings.ToLower(goos), strings.ToLower(arch))
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
