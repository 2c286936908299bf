package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/orchestrator/source/oci"
)

// pushResult is what `strata push` reports.
type pushResult struct {
	URL        string `json:"url"`
	Repository string `json:"repository"`
	Tag        string `json:"tag"`
	Digest     string `json:"digest"`
}

func newPushCommand(g *globals) *cobra.Command {
	var (
		source, revision, dockerConfig string
		timeout                        time.Duration
		annotations, ignorePaths       []string
		insecure, reproducible         bool
	)
	cmd := &cobra.Command{
		Use:   "push DIR oci://HOST/REPOSITORY:TAG",
		Short: "Push a stack's code as an OCI artefact that Flux and strata both read",
		Long: `push packs the directory DIR as an OCI artefact and uploads it under TAG.

The artefact is the one ` + "`flux push artifact`" + ` makes: a gzipped tar layer of the
directory, Flux's config and content media types, and the annotations
org.opencontainers.image.source (--source), .revision (--revision) and
.created (now, or 1970-01-01T00:00:00Z with --reproducible). Flux's
OCIRepository and strata can therefore both use it, and the two commands are
interchangeable. Tag releases with their semver version (0.2.0, 1.0.0-rc.1)
so that _versions.yaml constraints can select them.

Credentials come from $` + oci.EnvUsername + ` and
$` + oci.EnvPassword + ` when set, and otherwise from the Docker config
file (` + "`docker login`" + `). Registries are reached over https; --insecure
allows plain http to this registry only, e.g. a local one on 127.0.0.1.`,
		Example: `  # Release version 0.2.0 of the stack flux-apps/network/vpc, as with
  #   flux push artifact oci://ghcr.io/acme/iac/vpc:0.2.0 --path=./flux-apps/network/vpc \
  #     --source=... --revision=...
  strata push ./flux-apps/network/vpc oci://ghcr.io/acme/iac/vpc:0.2.0 \
    --source="$(git config --get remote.origin.url)" \
    --revision="$(git branch --show-current)@sha1:$(git rev-parse HEAD)"

  # To a local registry over plain http, with an extra annotation, as JSON
  strata push ./flux-apps/network/vpc oci://127.0.0.1:5000/iac/vpc:0.3.0-rc.1 \
    --source=https://git.example.com/iac.git --revision=main@sha1:0123abc \
    --annotation strata.dev/owner=platform --insecure -o json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			dir, url := args[0], args[1]
			if source == "" || revision == "" {
				return &exitError{code: 2, msg: "push: --source and --revision are required"}
			}
			ann := map[string]string{}
			for _, a := range annotations {
				k, v, ok := strings.Cut(a, "=")
				if !ok || k == "" {
					return &exitError{code: 2, msg: fmt.Sprintf("push: annotation %q: want key=value", a)}
				}
				ann[k] = v
			}
			if reproducible {
				ann[oci.AnnotationCreated] = oci.ReproducibleCreated
			}
			opts := oci.Options{DockerConfig: dockerConfig}
			if insecure {
				opts.Insecure = []string{registryHost(url)}
			}
			if timeout <= 0 {
				return &exitError{code: 2, msg: fmt.Sprintf("push: --timeout %s: want a duration above zero", timeout)}
			}
			digest, err := deadline.Run(cmd.Context(), "push "+url, timeout, func(ctx context.Context) (string, error) {
				return oci.New(opts).Push(ctx, dir, url, oci.PushMeta{
					Source:      source,
					Revision:    revision,
					Annotations: ann,
					IgnorePaths: ignorePaths,
				})
			})
			if err != nil {
				return err
			}
			repo, tag := splitTag(url)
			res := pushResult{URL: url, Repository: repo, Tag: tag, Digest: digest}
			if g.output == "json" {
				return writeJSON(g.stdout, res)
			}
			fmt.Fprintf(g.stdout, "pushed %s\ndigest %s\npin    %s@%s\n", url, digest, oci.Scheme+repo, digest)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&source, "source", "", "address of the code, e.g. the Git remote URL (required)")
	f.StringVar(&revision, "revision", "", "revision of the code, e.g. main@sha1:<commit> (required)")
	f.StringArrayVar(&annotations, "annotation", nil, "extra manifest annotation key=value (repeatable)")
	f.StringSliceVar(&ignorePaths, "ignore-paths", oci.DefaultIgnorePaths, "paths to leave out, in .gitignore format")
	f.BoolVar(&reproducible, "reproducible", false, "set the created time to 1970-01-01T00:00:00Z, so the same content gives the same digest")
	f.BoolVar(&insecure, "insecure", false, "allow plain http to this registry")
	f.DurationVar(&timeout, "timeout", 5*time.Minute, "how long the whole push may take, as flux push artifact's --timeout")
	f.StringVar(&dockerConfig, "docker-config", "", "Docker config.json to read credentials from (default: $DOCKER_CONFIG/config.json, then ~/.docker/config.json)")
	return cmd
}

// registryHost is the host:port of "oci://host:port/repo:tag".
func registryHost(url string) string {
	host, _, _ := strings.Cut(strings.TrimPrefix(url, oci.Scheme), "/")
	return host
}

// splitTag splits "oci://host/repo:tag" into "host/repo" and "tag".
func splitTag(url string) (string, string) {
	rest := strings.TrimPrefix(url, oci.Scheme)
	if i := strings.LastIndex(rest, ":"); i > strings.LastIndex(rest, "/") {
		return rest[:i], rest[i+1:]
	}
	return rest, ""
}
