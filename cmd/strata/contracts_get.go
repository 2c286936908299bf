package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/lineage"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

func newContractsGetCommand(g *globals) *cobra.Command {
	var (
		property    string
		showPrivate bool
		schema      bool
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
--show-private.

--schema prints the contract's schema history instead: its schema version,
which counts breaking changes (a key removed, moved between public and
private, or changed to another type), and each key with its type and when
it appeared (time, producer version and schema version). Names and types
only: never a value.`,
		Example: `  strata contracts get environments/demo/dev network
  strata contracts get environments/demo/dev /configuration/network --property public.vpc_id
  strata contracts get environments/demo/dev api --property private.database_password --show-private
  strata contracts get environments/demo/dev network --schema`,
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
			if schema {
				return c.writeSchema(g, key)
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
	cmd.Flags().BoolVar(&schema, "schema", false, "print the contract's schema history: version, keys, types and when each key appeared")
	cmd.MarkFlagsMutuallyExclusive("schema", "property")
	return cmd
}

// writeSchema prints the schema history of the contract at key.
func (c *contractsEnv) writeSchema(g *globals, key string) error {
	name := c.contractName(key)
	sc, ok, err := lineage.New(c.stateDir, c.env.Client, c.env.Name).Get(name)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("get contract %s schema: no schema recorded in %s: it is recorded when the contract is published, by strata apply",
			key, filepath.Join(c.stateDir, statedir.ContractSchemas, c.env.Client, c.env.Name))
	}
	if g.output == "json" {
		return writeJSON(g.stdout, sc)
	}
	fmt.Fprintf(g.stdout, "%s: schema version %d (counts breaking changes), changed %s\n", key, sc.Version, sc.UpdatedAt.Format(time.RFC3339))
	tw := newTable(g.stdout)
	fmt.Fprintln(tw, "KEY\tTYPE\tSINCE\tSINCE VERSION\tSINCE SCHEMA")
	for _, k := range sc.Keys {
		fmt.Fprintf(tw, "%s.%s\t%s\t%s\t%s\t%d\n", k.Section, k.Name, k.Type, k.Since.Format(time.RFC3339), dash(k.SinceVersion), k.SinceSchema)
	}
	return tw.Flush()
}
