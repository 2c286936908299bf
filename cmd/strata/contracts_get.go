package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func newContractsGetCommand(g *globals) *cobra.Command {
	var (
		property    string
		showPrivate bool
	)
	cmd := &cobra.Command{
		Use:   "get ENV KEY",
		Short: "Print one contract document, or one value of it",
		Long: `get prints the contract KEY of the environment ENV as JSON. KEY is the
contract's key (/configuration/foo) or its name under the environment's
prefix (foo).

Private values are replaced by "(sensitive)" unless --show-private is given.

--property prints one value, resolved exactly as External Secrets resolves
an ExternalSecret's remoteRef.property against the document: a dotted path
such as public.vpc_id, private.database.endpoint or public.subnets.0 (a dot
inside a key is written \.). A string prints as it is, anything else as
JSON (with -o json, always as JSON). A property under private needs
--show-private.`,
		Example: `  strata contracts get environments/demo/dev network
  strata contracts get environments/demo/dev /configuration/network --property public.vpc_id
  strata contracts get environments/demo/dev api --property private.database_password --show-private`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			if cmd.Flags().Changed("property") && property == "" {
				return &exitError{code: 2, msg: "get: --property is empty: give a path such as public.vpc_id"}
			}
			ctx := cmd.Context()
			c, err := openContracts(ctx, g, args[0])
			if err != nil {
				return err
			}
			key, err := c.key(args[1])
			if err != nil {
				return err
			}
			if property != "" && firstSegment(property) == "private" && !showPrivate {
				return &exitError{code: 1, msg: fmt.Sprintf("get contract %s property %q: the value is private: add --show-private to print it", key, property)}
			}
			d, err := c.get(ctx, "get contract", key)
			if err != nil {
				return err
			}
			if property == "" {
				if !showPrivate {
					d = d.Redacted()
				}
				return writeJSON(g.stdout, d)
			}
			v, ok := d.Lookup(property)
			if !ok {
				return fmt.Errorf("get contract %s property %q: the document has no such property; its properties are: %s",
					key, property, strings.Join(properties(d), ", "))
			}
			if s, ok := v.(string); ok && g.output == "text" {
				_, err := fmt.Fprintln(g.stdout, s)
				return err
			}
			return writeJSON(g.stdout, v)
		},
	}
	cmd.Flags().StringVar(&property, "property", "", "print only the value at this dotted path (as remoteRef.property), e.g. public.vpc_id")
	cmd.Flags().BoolVar(&showPrivate, "show-private", false, "print private values too")
	return cmd
}
