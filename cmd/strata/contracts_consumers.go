package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/readers"
	"github.com/strata-iac/strata/orchestrator/consumers"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/validate"
)

func newContractsConsumersCommand(g *globals) *cobra.Command {
	var (
		key string
		f   registryFlags
	)
	cmd := &cobra.Command{
		Use:   "consumers ENV CONTRACT",
		Short: "List the stacks that read a contract, which keys they read, and where",
		Long: `consumers lists, for the contract CONTRACT of the environment ENV, every
stack that reads it, each key it reads, and the file:line of each reference.
CONTRACT is the contract's name (network) or key (/configuration/network).

The reads are found in each consumer's code, with the HCL parser: a
variable fed by readInputsFromSecrets or strata.dev/read-contracts, followed
through its attributes (var.network.public.subnet_ids). A reference that
stops short of a key — the object passed whole to a module or a function,
or indexed by a value known only when tofu runs — reads every key it can
reach, shown as *. A reference inside try() or can() is optional: removing
the key does not break the consumer, changing its type may. This is what strata checks a producer's plan against
before it applies it.

--key keeps the reads of one key: NAME (either section) or public.NAME,
private.NAME.`,
		Example: `  strata contracts consumers environments/demo/dev network
  strata contracts consumers environments/demo/dev network --key subnet_ids -o json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			ctx := cmd.Context()
			env, _, err := validate.Environment(ctx, args[0])
			if err != nil {
				return err
			}
			prefix := env.Settings.Contracts.Prefix
			contract := contractArg(prefix, args[1])
			if contract == "" {
				return &exitError{code: 2, msg: fmt.Sprintf("consumers: %q names no contract: give its name (network) or key (%s)", args[1], contracts.Key(prefix, "network"))}
			}
			section, name := splitKeyFlag(key)
			x := reconcile.Consumers(ctx, env, reconcile.Options{
				StateDir: g.stateDir, InsecureRegistries: f.insecure, DockerConfig: f.dockerConfig,
			})
			rs := filterReaders(x.Readers(contract), section, name)
			if g.output == "json" {
				return writeJSON(g.stdout, map[string]any{
					"client": env.Client, "environment": env.Name,
					"contract": contract, "key": contracts.Key(prefix, contract), "readers": rs,
				})
			}
			if len(rs) == 0 {
				what := "contract " + contract
				if key != "" {
					what = fmt.Sprintf("key %s of contract %s", key, contract)
				}
				fmt.Fprintf(g.stdout, "no stack of %s/%s reads %s\n", env.Client, env.Name, what)
				return nil
			}
			tw := newTable(g.stdout)
			fmt.Fprintln(tw, "STACK\tREADS\tWHERE")
			for _, r := range rs {
				for _, rd := range r.Reads {
					where := rd.Pos.String()
					if r.Err != "" {
						where = r.Err
					}
					what := rd.What()
					if rd.Optional {
						what += " (optional)"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Stack, what, where)
				}
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "only the reads of this key: NAME, public.NAME or private.NAME")
	f.register(cmd)
	return cmd
}

// contractArg is the contract a CONTRACT argument names: "network" as it
// is, "/configuration/network" relative to the prefix.
func contractArg(prefix, arg string) string {
	if strings.HasPrefix(arg, "/") {
		base := strings.TrimSuffix(contracts.Key(prefix, ""), "/") + "/"
		if name, ok := strings.CutPrefix("/"+strings.Trim(arg, "/"), base); ok {
			return name
		}
	}
	return strings.Trim(arg, "/")
}

// splitKeyFlag splits --key into its section ("" for either) and name.
func splitKeyFlag(key string) (section, name string) {
	for _, s := range []string{readers.SectionPublic, readers.SectionPrivate} {
		if n, ok := strings.CutPrefix(key, s+"."); ok {
			return s, n
		}
	}
	return "", key
}

// filterReaders keeps the reads of one key, and the readers left with
// any; an empty name keeps everything.
func filterReaders(rs []consumers.Reader, section, name string) []consumers.Reader {
	out := []consumers.Reader{}
	for _, r := range rs {
		if name == "" {
			out = append(out, r)
			continue
		}
		kept := []readers.Read{}
		for _, rd := range r.Reads {
			if (section != "" && rd.Reads(section, name)) ||
				(section == "" && (rd.Reads(readers.SectionPublic, name) || rd.Reads(readers.SectionPrivate, name))) {
				kept = append(kept, rd)
			}
		}
		if len(kept) > 0 {
			r.Reads = kept
			out = append(out, r)
		}
	}
	return out
}
