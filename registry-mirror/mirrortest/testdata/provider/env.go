package main

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// env is the data source strata_env: the values of the environment
// variables it names, as the provider's process sees them (tofu hands a
// provider its own environment), as the external data source or the
// vault provider read theirs.
type env struct{}

type envModel struct {
	Names  types.List `tfsdk:"names"`
	Values types.Map  `tfsdk:"values"`
}

func (env) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_env"
}

func (env) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dsschema.Schema{
		Description: "The values of the named environment variables of the provider's process (\"\" when unset).",
		Attributes: map[string]dsschema.Attribute{
			"names":  dsschema.ListAttribute{Required: true, ElementType: types.StringType},
			"values": dsschema.MapAttribute{Computed: true, ElementType: types.StringType},
		},
	}
}

func (env) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m envModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var names []string
	resp.Diagnostics.Append(m.Names.ElementsAs(ctx, &names, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	values := make(map[string]attr.Value, len(names))
	for _, n := range names {
		values[n] = types.StringValue(os.Getenv(n))
	}
	v, diags := types.MapValue(types.StringType, values)
	resp.Diagnostics.Append(diags...)
	m.Values = v
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
