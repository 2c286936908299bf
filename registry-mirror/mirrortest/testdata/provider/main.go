// Command provider is the tiny provider the mirror's tests build, pack,
// serve and install with a real tofu init: strata-iac/strata, with one
// resource, strata_echo, whose computed output is its input, and two data
// sources: strata_file, which writes a file while planning (file.go), and
// strata_env, which reads the provider's environment (env.go).
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	providerschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	err := providerserver.Serve(context.Background(), newProvider, providerserver.ServeOpts{
		Address: "registry.opentofu.org/strata-iac/strata",
	})
	if err != nil {
		log.Fatal(err)
	}
}

type strataProvider struct{}

func newProvider() provider.Provider { return strataProvider{} }

func (strataProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "strata"
	resp.Version = version
}

func (strataProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = providerschema.Schema{}
}

func (strataProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (strataProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return echo{} }}
}

func (strataProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource { return file{} },
		func() datasource.DataSource { return env{} },
	}
}

// echo is strata_echo: output = input.
type echo struct{}

type echoModel struct {
	Input  types.String `tfsdk:"input"`
	Output types.String `tfsdk:"output"`
}

func (echo) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_echo"
}

func (echo) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Echoes input into output.",
		Attributes: map[string]schema.Attribute{
			"input":  schema.StringAttribute{Required: true},
			"output": schema.StringAttribute{Computed: true},
		},
	}
}

func (echo) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m echoModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Output = m.Input
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (echo) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m echoModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (echo) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m echoModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Output = m.Input
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (echo) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
