package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/reconcile"
)

func newVersionsCommand(g *globals) *cobra.Command {
	var (
		f  registryFlags
		rf recordsFlags
	)
	cmd := &cobra.Command{
		Use:   "versions ENV...",
		Short: "Show which version of each stack every environment asks for, resolves to and runs",
		Long: `versions lists, per stack of each environment given: the version the
repository asks for (the _versions.yaml constraint, or the OCIRepository's
ref), the version and digest that resolves to now, the version last applied,
and the result of the last run. "current" says whether what is applied is
what the repository resolves to today.

Give several environments to see which version each client runs. Nothing
is downloaded or changed: OCI sources are resolved by listing tags.

The last run is read from the state directory, or the records that
--kubeconfig/--namespace (a cluster's) or --records s3://bucket/prefix (an
S3 bucket's) name.`,
		Example: "  strata versions environments/demo/dev\n  strata versions environments/*/* -o json",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			recs, err := rf.records(cmd)
			if err != nil {
				return err
			}
			var all []reconcile.VersionRow
			for _, dir := range args {
				rows, err := reconcile.Versions(cmd.Context(), dir, reconcile.Options{
					StateDir:           g.stateDir,
					InsecureRegistries: f.insecure,
					DockerConfig:       f.dockerConfig,
					Records:            recs,
				})
				if err != nil {
					return err
				}
				all = append(all, rows...)
			}
			if g.output == "json" {
				if all == nil {
					all = []reconcile.VersionRow{}
				}
				return writeJSON(g.stdout, all)
			}
			tw := newTable(g.stdout)
			fmt.Fprintln(tw, "CLIENT\tENV\tSTACK\tCONSTRAINT\tRESOLVED\tDIGEST\tAPPLIED\tCURRENT\tLAST RUN")
			var problems []string
			for _, r := range all {
				resolved, digest := dash(r.Resolved), shortDigest(r.Digest)
				if r.ResolveError != "" {
					resolved, digest = "error", "-"
					problems = append(problems, fmt.Sprintf("%s/%s %s: %s", r.Client, r.Environment, r.Stack, r.ResolveError))
				}
				current := "no"
				if r.Current {
					current = "yes"
				}
				last := "never"
				if r.LastRun > 0 {
					last = fmt.Sprintf("#%d %s %s %s", r.LastRun, r.LastOperation, r.LastResult, r.LastRunAt.Local().Format(time.DateTime))
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Client, r.Environment, r.Stack, dash(r.Constraint), resolved, digest, dash(r.Applied), current, last)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			for _, p := range problems {
				fmt.Fprintln(g.stdout, "\n"+p)
			}
			if len(problems) > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("%d stack(s) could not be resolved", len(problems))}
			}
			return nil
		},
	}
	f.register(cmd)
	rf.register(cmd)
	return cmd
}

// registryFlags reach OCI registries.
type registryFlags struct {
	insecure     []string
	dockerConfig string
}

func (f *registryFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.insecure, "insecure-registry", nil,
		"registry host (host:port) that may be reached over plain http, on top of OCIRepositories with spec.insecure (repeatable)")
	cmd.Flags().StringVar(&f.dockerConfig, "docker-config", "", "Docker config.json with registry credentials (default: $DOCKER_CONFIG/config.json, then ~/.docker/config.json)")
}

// shortDigest keeps a digest readable in a table: the algorithm and 12
// hex digits.
func shortDigest(d string) string {
	if d == "" {
		return "-"
	}
	if len(d) > 19 {
		return d[:19]
	}
	return d
}
