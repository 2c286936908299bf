package main

import (
	"fmt"
	"os/exec"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/tofu"
)

func newVersionCommand(g *globals) *cobra.Command {
	var tofuFlag string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print strata's version and the tofu it runs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			v := map[string]string{"strata": buildVersion()}
			if bin, err := tofu.Find(tofuFlag); err == nil {
				v["tofu"] = bin
				out, err := exec.CommandContext(cmd.Context(), bin, "version").Output()
				if err == nil {
					v["tofuVersion"] = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
				}
			} else {
				v["tofuError"] = err.Error()
			}
			if g.output == "json" {
				return writeJSON(g.stdout, v)
			}
			fmt.Fprintf(g.stdout, "strata %s\n", v["strata"])
			if v["tofu"] != "" {
				fmt.Fprintf(g.stdout, "tofu   %s (%s)\n", v["tofu"], dash(v["tofuVersion"]))
			} else {
				fmt.Fprintf(g.stdout, "tofu   not found: %s\n", v["tofuError"])
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&tofuFlag, "tofu", "", "tofu binary (default: $"+tofu.EnvBinary+", then tofu on PATH, then bin/tofu)")
	return cmd
}

// buildVersion is the module version strata was built at, with the VCS
// revision when the build recorded one.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
