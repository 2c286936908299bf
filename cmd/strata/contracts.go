package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/statedir"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// externalProducer stands for the producer of a document under the prefix
// that no stack of the environment produces.
const externalProducer = "(external)"

func newContractsCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "contracts",
		Short: "List, read and reference the JSON contracts that stacks publish",
		Long: `contracts reads the data contracts of an environment: the JSON document
each producer stack publishes at <prefix>/<contract> (default prefix
/configuration), shaped
  {"installed":true,"version":"…","stack":"…","updatedAt":"…","public":{…},"private":{…}}

The store is the environment's: init keys contractStore (local, the default;
ssm; s3), contractPrefix, contractRegion, contractEndpoint, contractBucket
and contractKmsKeyId choose it, as for a reconcile. The local store lives in
the state directory (--state-dir, default .strata/ at the repository root).

Private values are printed only when --show-private asks for them.`,
		Example: `  strata contracts ls environments/demo/dev
  strata contracts get environments/demo/dev network --property public.vpc_id
  strata contracts external-secret environments/demo/dev api --map private.database_password=DATABASE_PASSWORD`,
	}
	ls, get, es, consumers := newContractsLsCommand(g), newContractsGetCommand(g), newContractsExternalSecretCommand(g), newContractsConsumersCommand(g)
	readOnly(ls, get, es, consumers)
	cmd.AddCommand(ls, get, es, consumers, newContractsDiffCommand(g))
	return cmd
}

// contractsEnv is an environment with its contract store open.
type contractsEnv struct {
	env    *environment.Environment
	store  contracts.Store
	kind   string // environment.ContractsLocal, ContractsSSM or ContractsS3
	prefix string
	where  string // "the local store at …", for messages
	// stateDir is the state directory, which keeps contract schemas.
	stateDir string
}

// openContracts loads the environment at dir and opens its contract store.
func openContracts(ctx context.Context, g *globals, dir string) (*contractsEnv, error) {
	env, _, err := validate.Environment(ctx, dir)
	if err != nil {
		return nil, err
	}
	set, err := g.settings(env)
	if err != nil {
		return nil, err
	}
	st, err := envstores.OpenContracts(ctx, env, set)
	if err != nil {
		return nil, err
	}
	return &contractsEnv{
		env: env, store: st, kind: set.Contracts.Store, prefix: set.Contracts.Prefix,
		where: storeWhere(env, set), stateDir: set.StateDir,
	}, nil
}

// storeWhere describes the store for messages: which kind, and where.
func storeWhere(env *environment.Environment, set environment.Settings) string {
	c := set.Contracts
	endpoint := c.Endpoint
	if e := os.Getenv(stores.EnvEndpoint); e != "" {
		endpoint = e
	}
	at := ""
	if endpoint != "" {
		at = " at " + endpoint
	}
	switch c.Store {
	case environment.ContractsSSM:
		return fmt.Sprintf("the ssm store in %s%s", dash(c.Region), at)
	case environment.ContractsS3:
		return fmt.Sprintf("the s3 store s3://%s%s", c.Bucket, at)
	default:
		return "the local store at " + filepath.Join(set.StateDir, statedir.Contracts, env.Client, env.Name)
	}
}

// key returns the store key of a contract argument: "/configuration/foo"
// as it is, "foo" under the environment's prefix.
func (c *contractsEnv) key(arg string) (string, error) {
	if strings.Trim(arg, "/") == "" {
		return "", &exitError{code: 2, msg: fmt.Sprintf("contract %q names no contract: give its name (foo) or key (%s)", arg, contracts.Key(c.prefix, "foo"))}
	}
	if strings.HasPrefix(arg, "/") {
		return "/" + strings.Trim(arg, "/"), nil
	}
	return contracts.Key(c.prefix, arg), nil
}

// get reads the document at key. A missing document is an error naming
// the key, the store and the contracts that exist.
func (c *contractsEnv) get(ctx context.Context, action, key string) (contracts.Document, error) {
	d, err := c.store.Get(ctx, key)
	if errors.Is(err, contracts.ErrNotFound) {
		return contracts.Document{}, fmt.Errorf("%s %s: %w in %s; %s", action, key, contracts.ErrNotFound, c.where, c.existing(ctx))
	}
	if err != nil {
		return contracts.Document{}, fmt.Errorf("%s %s: %w", action, key, err)
	}
	return d, nil
}

// existing says which contracts the store holds under the prefix, for an
// error about a missing one.
func (c *contractsEnv) existing(ctx context.Context) string {
	keys, err := c.store.List(ctx, c.prefix)
	switch {
	case err != nil:
		return fmt.Sprintf("listing the contracts under %s failed too: %v", c.prefix, err)
	case len(keys) == 0:
		return fmt.Sprintf("there is no contract under %s yet: run strata apply first", c.prefix)
	default:
		return fmt.Sprintf("contracts under %s: %s", c.prefix, strings.Join(keys, ", "))
	}
}

// producer returns the stack of the environment that produces the
// contract at key, or externalProducer.
func (c *contractsEnv) producer(key string) string {
	for _, s := range c.env.Stacks {
		if s.Produces != "" && contracts.Key(c.prefix, s.Produces) == key {
			return s.Name
		}
	}
	return externalProducer
}

// contractName is key relative to the prefix: "foo" for
// "/configuration/foo".
func (c *contractsEnv) contractName(key string) string {
	base := strings.TrimSuffix(c.prefix, "/") + "/"
	if name, ok := strings.CutPrefix(key, base); ok {
		return name
	}
	return strings.TrimPrefix(key, "/")
}

// documentFields are the top-level properties of every document.
var documentFields = []string{"installed", "version", "stack", "updatedAt", "public", "private"}

// properties lists the property paths of a document that a remoteRef can
// name, as Lookup takes them: the top-level fields, and every value of
// public and private down to its leaves (lists and empty objects count as
// leaves). Names only: never a value.
func properties(d contracts.Document) []string {
	out := []string{"installed", "version", "stack", "updatedAt"}
	out = appendPaths(out, "public", d.Public)
	return appendPaths(out, "private", d.Private)
}

func appendPaths(out []string, path string, v any) []string {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return append(out, path)
	}
	for _, k := range keys(m) {
		out = appendPaths(out, path+"."+strings.ReplaceAll(k, ".", `\.`), m[k])
	}
	return out
}

// firstSegment is the top-level field a property path starts with.
func firstSegment(property string) string {
	var b strings.Builder
	for i := 0; i < len(property); i++ {
		switch {
		case property[i] == '\\' && i+1 < len(property) && property[i+1] == '.':
			b.WriteByte('.')
			i++
		case property[i] == '.':
			return b.String()
		default:
			b.WriteByte(property[i])
		}
	}
	return b.String()
}
