package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/environment"
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
	cmd.AddCommand(
		newContractsLsCommand(g),
		newContractsGetCommand(g),
		newContractsExternalSecretCommand(g),
	)
	return cmd
}

// contractsEnv is an environment with its contract store open.
type contractsEnv struct {
	env    *environment.Environment
	store  contracts.Store
	kind   string // stores.Local, stores.SSM or stores.S3
	prefix string
	where  string // "the local store at …", for messages
}

// openContracts loads the environment at dir and opens its contract store.
func openContracts(ctx context.Context, g *globals, dir string) (*contractsEnv, error) {
	env, _, err := orchestrator.Validate(ctx, dir)
	if err != nil {
		return nil, err
	}
	stateDir := g.stateDir
	if stateDir == "" {
		stateDir = filepath.Join(env.Root, ".strata")
	}
	st, err := stores.Open(ctx, env.Init, stateDir, env.Client, env.Name)
	if err != nil {
		return nil, fmt.Errorf("contracts of %s/%s: %w", env.Client, env.Name, err)
	}
	prefix, err := stores.Prefix(env.Init)
	if err != nil {
		return nil, fmt.Errorf("contracts of %s/%s: %w", env.Client, env.Name, err)
	}
	kind := strings.TrimSpace(env.Init[stores.KeyStore])
	if kind == "" {
		kind = stores.Local
	}
	return &contractsEnv{
		env: env, store: st, kind: kind, prefix: prefix,
		where: storeWhere(env, kind, stateDir),
	}, nil
}

// storeWhere describes the store for messages: which kind, and where.
func storeWhere(env *environment.Environment, kind, stateDir string) string {
	endpoint := env.Init[stores.KeyEndpoint]
	if e := os.Getenv(stores.EnvEndpoint); e != "" {
		endpoint = e
	}
	at := ""
	if endpoint != "" {
		at = " at " + endpoint
	}
	region := env.Init[stores.KeyRegion]
	if region == "" {
		region = env.Init[stores.KeyInitRegion]
	}
	switch kind {
	case stores.Local:
		return "the local store at " + filepath.Join(stateDir, "contracts", env.Client, env.Name)
	case stores.SSM:
		return fmt.Sprintf("the ssm store in %s%s", dash(region), at)
	case stores.S3:
		return fmt.Sprintf("the s3 store s3://%s%s", env.Init[stores.KeyBucket], at)
	default:
		return "the " + kind + " store"
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
	docs, err := stores.ReadPath(ctx, c.store, c.prefix)
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

// Secret store kinds of an ExternalSecret's secretStoreRef.
const (
	ClusterSecretStore = "ClusterSecretStore"
	SecretStore        = "SecretStore"
)

// defaultSecretStores are the default secret store names per contract
// store.
var defaultSecretStores = map[string]string{
	stores.SSM:   "aws-parameter-store",
	stores.S3:    "strata-contracts-s3",
	stores.Local: "strata-contracts-local",
}

// externalSecret is the manifest external-secret prints.
type externalSecret struct {
	APIVersion string             `json:"apiVersion" yaml:"apiVersion"`
	Kind       string             `json:"kind" yaml:"kind"`
	Metadata   externalSecretMeta `json:"metadata" yaml:"metadata"`
	Spec       externalSecretSpec `json:"spec" yaml:"spec"`
}

type externalSecretMeta struct {
	Name      string `json:"name" yaml:"name"`
	Namespace string `json:"namespace,omitempty" yaml:"namespace,omitempty"`
}

type externalSecretSpec struct {
	RefreshInterval string                   `json:"refreshInterval" yaml:"refreshInterval"`
	SecretStoreRef  secretStoreRef           `json:"secretStoreRef" yaml:"secretStoreRef"`
	Target          externalSecretTarget     `json:"target" yaml:"target"`
	Data            []externalSecretDataItem `json:"data" yaml:"data"`
}

type secretStoreRef struct {
	Kind string `json:"kind" yaml:"kind"`
	Name string `json:"name" yaml:"name"`
}

type externalSecretTarget struct {
	Name string `json:"name" yaml:"name"`
}

type externalSecretDataItem struct {
	RemoteRef remoteRef `json:"remoteRef" yaml:"remoteRef"`
	SecretKey string    `json:"secretKey" yaml:"secretKey"`
}

type remoteRef struct {
	Key      string `json:"key" yaml:"key"`
	Property string `json:"property" yaml:"property"`
}

// mapping is one --map: a document property and the secret key it fills.
type mapping struct {
	property, secretKey string
}

var (
	// secretKeyRE is what a Kubernetes Secret accepts as a data key.
	secretKeyRE = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)
	// dnsNameRE is an RFC 1123 subdomain, as Kubernetes object names are.
	dnsNameRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	// notDNS is what objectName replaces.
	notDNS = regexp.MustCompile(`[^a-z0-9]+`)
)

// parseMaps reads the --map flags: property=SECRET_KEY, split at the last
// "=", each secret key once.
func parseMaps(raw []string) ([]mapping, error) {
	if len(raw) == 0 {
		return nil, &exitError{code: 2, msg: "external-secret: give at least one --map property=ENV_NAME, e.g. --map private.database.endpoint=DATABASE_HOST"}
	}
	seen := map[string]string{}
	var out []mapping
	for _, r := range raw {
		i := strings.LastIndex(r, "=")
		if i <= 0 || i == len(r)-1 {
			return nil, &exitError{code: 2, msg: fmt.Sprintf("external-secret: --map %q: want property=ENV_NAME, e.g. private.database.endpoint=DATABASE_HOST", r)}
		}
		m := mapping{property: r[:i], secretKey: r[i+1:]}
		if !secretKeyRE.MatchString(m.secretKey) {
			return nil, &exitError{code: 2, msg: fmt.Sprintf("external-secret: --map %q: secret key %q may hold only letters, digits, \"-\", \"_\" and \".\"", r, m.secretKey)}
		}
		if prev, ok := seen[m.secretKey]; ok {
			return nil, &exitError{code: 2, msg: fmt.Sprintf("external-secret: secret key %s is mapped twice, from %q and %q", m.secretKey, prev, m.property)}
		}
		seen[m.secretKey] = m.property
		out = append(out, m)
	}
	return out, nil
}

// objectName makes a Kubernetes object name from a contract name:
// "acme/api_v2" becomes "acme-api-v2".
func objectName(s string) string {
	return strings.Trim(notDNS.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

func newContractsExternalSecretCommand(g *globals) *cobra.Command {
	var (
		maps             []string
		name, namespace  string
		store, storeKind string
		refresh          string
		allowUnpublished bool
	)
	cmd := &cobra.Command{
		Use:   "external-secret ENV CONTRACT --map property=ENV_NAME ...",
		Short: "Print an ExternalSecret manifest that reads a contract",
		Long: `external-secret prints an ExternalSecret (external-secrets.io/v1beta1) that a
service can commit to read values of a contract into a Kubernetes Secret.
Each --map property=ENV_NAME becomes one data entry:

  - remoteRef:
      key: /configuration/<contract>
      property: <property>
    secretKey: ENV_NAME

CONTRACT is the contract's name (foo) or key (/configuration/foo). Each
property is a dotted path into the document, as strata contracts get
--property takes it (private.database.endpoint, public.vpc_id). Every
property must exist in the published document; the error lists the
properties there are. No value is ever printed, private or public.

A contract that is not published yet is an error, since its properties
cannot be checked; --allow-unpublished prints the manifest anyway, checking
only that each property starts with a document field.

The secret store (--secret-store) defaults by the environment's contract
store (init key contractStore):
  ssm    aws-parameter-store     a store of the aws provider, service
                                 ParameterStore, which reads the
                                 parameters and decrypts SecureStrings
  s3     strata-contracts-s3     a store the cluster defines for the
                                 bucket's JSON documents
  local  strata-contracts-local  the local store is on this machine and no
                                 cluster reads it: for review and tests
The ExternalSecret and its target Secret are named <contract>-secrets-<store>
(--name), e.g. foo-secrets-ssm.`,
		Example: `  strata contracts external-secret environments/demo/dev api \
    --map public.database_endpoint=DATABASE_HOST \
    --map private.database_password=DATABASE_PASSWORD
  strata contracts external-secret environments/demo/dev network --map public.vpc_id=VPC_ID \
    --secret-store parameter-store --secret-store-kind SecretStore --refresh 15m --namespace app`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "yaml", "json"); err != nil {
				return err
			}
			mapped, err := parseMaps(maps)
			if err != nil {
				return err
			}
			if storeKind != ClusterSecretStore && storeKind != SecretStore {
				return &exitError{code: 2, msg: fmt.Sprintf("external-secret: --secret-store-kind is %q: want %s or %s", storeKind, ClusterSecretStore, SecretStore)}
			}
			if _, err := time.ParseDuration(refresh); err != nil {
				return &exitError{code: 2, msg: fmt.Sprintf("external-secret: --refresh is %q: want a duration such as 1h or 15m", refresh)}
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
			if name == "" {
				name = objectName(c.contractName(key)) + "-secrets-" + c.kind
			}
			if len(name) > 253 || !dnsNameRE.MatchString(name) {
				return &exitError{code: 2, msg: fmt.Sprintf("external-secret: name %q is not a Kubernetes object name (lowercase letters, digits, \"-\" and \".\"): set --name", name)}
			}
			if store == "" {
				store = defaultSecretStores[c.kind]
			}
			header, err := c.checkMapped(ctx, cmd, key, mapped, allowUnpublished)
			if err != nil {
				return err
			}
			es := externalSecret{
				APIVersion: "external-secrets.io/v1beta1",
				Kind:       "ExternalSecret",
				Metadata:   externalSecretMeta{Name: name, Namespace: namespace},
				Spec: externalSecretSpec{
					RefreshInterval: refresh,
					SecretStoreRef:  secretStoreRef{Kind: storeKind, Name: store},
					Target:          externalSecretTarget{Name: name},
				},
			}
			for _, m := range mapped {
				es.Spec.Data = append(es.Spec.Data, externalSecretDataItem{
					SecretKey: m.secretKey,
					RemoteRef: remoteRef{Key: key, Property: m.property},
				})
			}
			if g.output == "json" {
				return writeJSON(g.stdout, es)
			}
			var buf bytes.Buffer
			enc := yaml.NewEncoder(&buf)
			enc.SetIndent(2)
			if err := enc.Encode(es); err != nil {
				return fmt.Errorf("external-secret for %s: %w", key, err)
			}
			_, err = fmt.Fprintf(g.stdout, "# %s\n%s", header, buf.Bytes())
			return err
		},
	}
	cmd.Flags().StringArrayVar(&maps, "map", nil, "property=ENV_NAME: put the document's property into the secret key ENV_NAME (repeatable, required)")
	cmd.Flags().StringVar(&name, "name", "", "name of the ExternalSecret and its target Secret (default <contract>-secrets-<store>)")
	cmd.Flags().StringVar(&namespace, "namespace", "", "metadata.namespace of the ExternalSecret (default: none, kubectl's)")
	cmd.Flags().StringVar(&store, "secret-store", "", "secretStoreRef.name (default by contract store: ssm aws-parameter-store, s3 strata-contracts-s3, local strata-contracts-local)")
	cmd.Flags().StringVar(&storeKind, "secret-store-kind", ClusterSecretStore, "secretStoreRef.kind: "+ClusterSecretStore+" or "+SecretStore)
	cmd.Flags().StringVar(&refresh, "refresh", "1h", "refreshInterval: how often External Secrets reads the contract again")
	cmd.Flags().BoolVar(&allowUnpublished, "allow-unpublished", false, "print the manifest even if the contract is not published yet (its properties are then not checked)")
	return cmd
}

// checkMapped checks every mapped property against the published document
// and returns the manifest's header comment. An unpublished contract is an
// error unless allowUnpublished; then only each property's first field is
// checked.
func (c *contractsEnv) checkMapped(ctx context.Context, cmd *cobra.Command, key string, mapped []mapping, allowUnpublished bool) (string, error) {
	d, err := c.store.Get(ctx, key)
	if errors.Is(err, contracts.ErrNotFound) {
		if !allowUnpublished {
			by := fmt.Sprintf("no stack of %s/%s produces it", c.env.Client, c.env.Name)
			if p := c.producer(key); p != externalProducer {
				by = "its producer " + p + " has not applied yet"
			}
			return "", fmt.Errorf("external-secret for %s: the contract is not published in %s (%s): "+
				"run strata apply first, or pass --allow-unpublished to print the manifest unchecked; %s",
				key, c.where, by, c.existing(ctx))
		}
		for _, m := range mapped {
			if !slices.Contains(documentFields, firstSegment(m.property)) {
				return "", fmt.Errorf("external-secret for %s: property %q (%s) starts with no document field: want one of %s",
					key, m.property, m.secretKey, strings.Join(documentFields, ", "))
			}
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s is not published yet in %s: the properties were not checked\n", key, c.where)
		return fmt.Sprintf("ExternalSecret for contract %s, not published yet: its properties were not checked. It holds no values.", key), nil
	}
	if err != nil {
		return "", fmt.Errorf("external-secret for %s: %w", key, err)
	}
	var missing []string
	for _, m := range mapped {
		if _, ok := d.Lookup(m.property); !ok {
			missing = append(missing, fmt.Sprintf("%q (%s)", m.property, m.secretKey))
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("external-secret for %s: the published document (stack %s, version %s) has no property %s; its properties are: %s",
			key, d.Stack, dash(d.Version), strings.Join(missing, ", "), strings.Join(properties(d), ", "))
	}
	return fmt.Sprintf("ExternalSecret for contract %s, published by stack %s at version %s. It holds no values.", key, d.Stack, dash(d.Version)), nil
}
