package reconcile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
)

// claimKeys lists what must belong to the environment alone: its identity
// (clientId/environment, which keys its history, held plans, workspaces,
// local state and local contracts) and where each stack's state is.
func claimKeys(env *environment.Environment, set environment.Settings) []string {
	keys := []string{"environment:" + env.Identity()}
	for _, s := range env.Stacks {
		if k := stateKey(env, set, s); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// stateKey names where a stack's state is: its customConfiguration's
// backend, else the environment's s3 backend; "" for the default local
// state, which the environment's identity already covers, and for the
// module's own backend (spec.backendConfig.disable), which only its code
// names.
func stateKey(env *environment.Environment, set environment.Settings, s *environment.Stack) string {
	if s.BackendDisabled {
		return ""
	}
	if s.BackendConfig != "" {
		return backendKey(s.BackendConfig)
	}
	if set.State.Backend == environment.StateS3 {
		return fmt.Sprintf("state:s3:%s/%s/%s/stacks/%s.tfstate", set.State.Bucket, env.Client, env.Name, s.Name)
	}
	return ""
}

// backendKey names the state a customConfiguration's backend block points
// at: its type and its literal settings that locate state (bucket and key,
// path, prefix, …), or all of its literal settings for a backend it does
// not know. A configuration it cannot parse names itself, as written.
func backendKey(config string) string {
	f, diags := hclsyntax.ParseConfig([]byte(config), "backendConfig", hcl.InitialPos)
	if diags.HasErrors() {
		return "state:config:" + strings.Join(strings.Fields(config), " ")
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return ""
	}
	for _, b := range body.Blocks {
		if b.Type != "backend" || len(b.Labels) != 1 {
			continue
		}
		attrs := map[string]string{}
		for name, a := range b.Body.Attributes {
			v, d := a.Expr.Value(nil)
			if d.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type().FriendlyName() != "string" {
				continue
			}
			attrs[name] = v.AsString()
		}
		var parts []string
		for _, k := range []string{"bucket", "key", "prefix", "path", "container_name", "storage_account_name", "workspace_key_prefix"} {
			if v, ok := attrs[k]; ok {
				parts = append(parts, k+"="+v)
			}
		}
		if len(parts) == 0 {
			for k, v := range attrs {
				parts = append(parts, k+"="+v)
			}
			sort.Strings(parts)
		}
		return "state:" + b.Labels[0] + ":" + strings.Join(parts, ",")
	}
	return ""
}

// claim claims the environment's identity and its stacks' state keys in
// its history before anything runs (see claim below).
func (p *pass) claim(ctx context.Context) error {
	return claim(ctx, p.stores.History, p.env, p.Settings)
}

// claim records that the environment owns its identity and its stacks'
// state in the state directory's history, and refuses a key that another
// environment of the repository already owns, naming both. The owner of a
// key is the environment's directory; a directory that no longer holds an
// environment gives its keys up.
func claim(ctx context.Context, h envstores.History, env *environment.Environment, set environment.Settings) error {
	owner := env.Dir
	gone := func(prev string) bool {
		_, err := os.Stat(filepath.Join(env.Root, filepath.FromSlash(prev), flux.InitFile))
		return os.IsNotExist(err)
	}
	conflicts, err := h.Claim(ctx, owner, claimKeys(env, set), gone)
	if err != nil {
		return err
	}
	if len(conflicts) == 0 {
		return nil
	}
	keys := make([]string, 0, len(conflicts))
	for k := range conflicts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	lines := make([]string, 0, len(keys))
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("%s is %s's", k, conflicts[k]))
	}
	return fmt.Errorf("environment %s (%s) would act on another environment's infrastructure: %s; nothing ran: give each environment its own clientId and environment in %s, and each stack its own state key",
		env.Dir, env.Identity(), strings.Join(lines, "; "), flux.InitFile)
}
