package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// Secret store kinds of an ExternalSecret's secretStoreRef.
const (
	ClusterSecretStore = "ClusterSecretStore"
	SecretStore        = "SecretStore"
)

// defaultSecretStores are the default secret store names per contract
// store.
var defaultSecretStores = map[string]string{
	environment.ContractsSSM:   "aws-parameter-store",
	environment.ContractsS3:    "strata-contracts-s3",
	environment.ContractsLocal: "strata-contracts-local",
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
