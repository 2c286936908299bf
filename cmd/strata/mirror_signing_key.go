package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/registry-mirror/providers"
)

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
			key, err := providers.GenerateSigningKey(name)
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
