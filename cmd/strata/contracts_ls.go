package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/contracts"
)

// contractRow is one line of `strata contracts ls`.
type contractRow struct {
	Key       string    `json:"key"`
	Contract  string    `json:"contract"`
	Stack     string    `json:"stack"`
	Published bool      `json:"published"`
	Version   string    `json:"version,omitempty"`
	UpdatedAt time.Time `json:"updatedAt,omitzero"`
	Public    []string  `json:"public"`
	Private   []string  `json:"private"`
}

func newContractsLsCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "ls ENV",
		Short: "List every contract of an environment, published or not",
		Long: `ls lists the contracts of an environment: each stack's contract
(spec.writeOutputsToSecret, or the strata.dev/contract annotation) and every
other document under the prefix in the store, whose producing stack is shown
as (external).

For each: its key, the producing stack, whether it is published, the
version and time of the document, and the names of its public and private
keys. Values are never shown; read one with strata contracts get.`,
		Example: "  strata contracts ls environments/demo/dev\n  strata contracts ls environments/demo/dev -o json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			ctx := cmd.Context()
			c, err := openContracts(ctx, g, args[0])
			if err != nil {
				return err
			}
			rows, err := c.rows(ctx)
			if err != nil {
				return err
			}
			if g.output == "json" {
				return writeJSON(g.stdout, map[string]any{
					"client": c.env.Client, "environment": c.env.Name,
					"store": c.kind, "prefix": c.prefix, "contracts": rows,
				})
			}
			if len(rows) == 0 {
				fmt.Fprintf(g.stdout, "%s/%s has no contract: no stack produces one, and %s holds none under %s\n",
					c.env.Client, c.env.Name, c.where, c.prefix)
				return nil
			}
			tw := newTable(g.stdout)
			fmt.Fprintln(tw, "KEY\tSTACK\tPUBLISHED\tVERSION\tUPDATED\tPUBLIC\tPRIVATE")
			for _, r := range rows {
				published, updated := "no", "-"
				if r.Published {
					published = "yes"
					updated = r.UpdatedAt.UTC().Format(time.RFC3339)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Key, r.Stack, published, dash(r.Version), updated,
					dash(strings.Join(r.Public, ",")), dash(strings.Join(r.Private, ",")))
			}
			return tw.Flush()
		},
	}
}

// rows lists the environment's contracts, sorted by key: those its stacks
// produce, published or not, and the other documents under the prefix.
func (c *contractsEnv) rows(ctx context.Context) ([]contractRow, error) {
	docs, err := contracts.ReadPath(ctx, c.store, c.prefix)
	if err != nil {
		return nil, fmt.Errorf("list contracts of %s/%s in %s: %w", c.env.Client, c.env.Name, c.where, err)
	}
	all := map[string]bool{}
	for key := range docs {
		all[key] = true
	}
	for _, s := range c.env.Stacks {
		if s.Produces != "" {
			all[contracts.Key(c.prefix, s.Produces)] = true
		}
	}
	rows := make([]contractRow, 0, len(all))
	for _, key := range slices.Sorted(maps.Keys(all)) {
		r := contractRow{Key: key, Contract: c.contractName(key), Stack: c.producer(key), Public: []string{}, Private: []string{}}
		if d, ok := docs[key]; ok {
			r.Published = true
			r.Version = d.Version
			r.UpdatedAt = d.UpdatedAt
			r.Public = keys(d.Public)
			r.Private = keys(d.Private)
		}
		rows = append(rows, r)
	}
	return rows, nil
}
