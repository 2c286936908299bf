package statefile

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// S3Backend is where a Terraform object's own s3 backend block
// (backendConfig.customConfiguration) keeps the stack's state.
type S3Backend struct {
	Bucket, Key, Region, Endpoint string
}

// ParseS3Backend reads the s3 backend block of a backend configuration. It
// reports false for any other backend, and for one whose bucket or key is
// not a literal string or that keys states by workspace
// (workspace_key_prefix): only a state strata can name exactly is read.
// The endpoint is `endpoints = { s3 = … }`, or the older `endpoint`.
func ParseS3Backend(config string) (S3Backend, bool) {
	b, ok := backendBlock(config, "s3")
	if !ok {
		return S3Backend{}, false
	}
	if _, ok := b.Body.Attributes["workspace_key_prefix"]; ok {
		return S3Backend{}, false
	}
	values := literals(b)
	s := S3Backend{Bucket: str(values["bucket"]), Key: str(values["key"]), Region: str(values["region"]), Endpoint: str(values["endpoint"])}
	if eps, ok := values["endpoints"]; ok && (eps.Type().IsObjectType() || eps.Type().IsMapType()) {
		if eps.Type().IsObjectType() && eps.Type().HasAttribute("s3") || eps.Type().IsMapType() && eps.HasIndex(cty.StringVal("s3")).True() {
			s.Endpoint = str(eps.GetAttr("s3"))
		}
	}
	if s.Bucket == "" || s.Key == "" {
		return S3Backend{}, false
	}
	return s, true
}

// KubernetesBackend is where a kubernetes backend block (the Tofu
// Controller's spec.backendConfig) keeps a stack's state: the Secret
// tfstate-<workspace>-<SecretSuffix> of Namespace, locked by the Lease
// lock-tfstate-<workspace>-<SecretSuffix>, reached in-cluster or through
// the kubeconfig file ConfigPath (tofu's KUBE_CONFIG_PATH when unset).
type KubernetesBackend struct {
	SecretSuffix, Namespace, ConfigPath, ConfigContext string
	InClusterConfig                                    bool
}

// ParseKubernetesBackend reads the kubernetes backend block of a backend
// configuration. It reports false for any other backend, and for one
// whose secret_suffix is not a literal string. The namespace is
// "default" when the block sets none, as tofu's.
func ParseKubernetesBackend(config string) (KubernetesBackend, bool) {
	b, ok := backendBlock(config, "kubernetes")
	if !ok {
		return KubernetesBackend{}, false
	}
	values := literals(b)
	k := KubernetesBackend{
		SecretSuffix:  str(values["secret_suffix"]),
		Namespace:     str(values["namespace"]),
		ConfigPath:    str(values["config_path"]),
		ConfigContext: str(values["config_context"]),
	}
	if v, ok := values["in_cluster_config"]; ok && v.Type() == cty.Bool {
		k.InClusterConfig = v.True()
	}
	if k.SecretSuffix == "" {
		return KubernetesBackend{}, false
	}
	if k.Namespace == "" {
		k.Namespace = "default"
	}
	return k, true
}

// backendBlock is the backend block of kind in a backend configuration.
func backendBlock(config, kind string) (*hclsyntax.Block, bool) {
	f, diags := hclsyntax.ParseConfig([]byte(config), "backendConfig", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, false
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil, false
	}
	for _, b := range body.Blocks {
		if b.Type == "backend" && len(b.Labels) == 1 && b.Labels[0] == kind {
			return b, true
		}
	}
	return nil, false
}

// literals are the attributes of a block whose values are known without
// evaluation.
func literals(b *hclsyntax.Block) map[string]cty.Value {
	values := map[string]cty.Value{}
	for name, a := range b.Body.Attributes {
		if v, d := a.Expr.Value(nil); !d.HasErrors() && v.IsWhollyKnown() && !v.IsNull() {
			values[name] = v
		}
	}
	return values
}

func str(v cty.Value) string {
	if v == cty.NilVal || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}
