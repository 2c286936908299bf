package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// file is the data source strata_file: it writes content to path when it
// is read, at plan time, and reports the file's MD5, as archive_file
// writes its archive while planning. A module that reads the file at
// apply (filemd5) needs it where the plan was made.
type file struct{}

type fileModel struct {
	Path    types.String `tfsdk:"path"`
	Content types.String `tfsdk:"content"`
	MD5     types.String `tfsdk:"md5"`
}

func (file) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_file"
}

func (file) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dsschema.Schema{
		Description: "Writes content to path when read, and reports its MD5.",
		Attributes: map[string]dsschema.Attribute{
			"path":    dsschema.StringAttribute{Required: true},
			"content": dsschema.StringAttribute{Required: true},
			"md5":     dsschema.StringAttribute{Computed: true},
		},
	}
}

func (file) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m fileModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	path, content := m.Path.ValueString(), m.Content.ValueString()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		resp.Diagnostics.AddError("write file", err.Error())
		return
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		resp.Diagnostics.AddError("write file", err.Error())
		return
	}
	sum := md5.Sum([]byte(content))
	m.MD5 = types.StringValue(hex.EncodeToString(sum[:]))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
