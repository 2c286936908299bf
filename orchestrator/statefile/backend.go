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
	f, diags := hclsyntax.ParseConfig([]byte(config), "backendConfig", hcl.InitialPos)
	if diags.HasErrors() {
		return S3Backend{}, false
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return S3Backend{}, false
	}
	for _, b := range body.Blocks {
		if b.Type != "backend" || len(b.Labels) != 1 || b.Labels[0] != "s3" {
			continue
		}
		values := map[string]cty.Value{}
		for name, a := range b.Body.Attributes {
			if v, d := a.Expr.Value(nil); !d.HasErrors() && v.IsWhollyKnown() && !v.IsNull() {
				values[name] = v
			}
		}
		str := func(v cty.Value) string {
			if v == cty.NilVal || v.Type() != cty.String {
				return ""
			}
			return v.AsString()
		}
		if _, ok := b.Body.Attributes["workspace_key_prefix"]; ok {
			return S3Backend{}, false
		}
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
	return S3Backend{}, false
}
