//go:build tools

package mirrortest

// The test provider lives under testdata, which package patterns such as
// ./... skip, and so does go mod tidy. This file is never built; tidy
// reads it, which keeps the provider's modules required in go.mod.
import (
	_ "github.com/hashicorp/terraform-plugin-framework/datasource"
	_ "github.com/hashicorp/terraform-plugin-framework/provider"
	_ "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	_ "github.com/hashicorp/terraform-plugin-framework/providerserver"
	_ "github.com/hashicorp/terraform-plugin-framework/resource"
	_ "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	_ "github.com/hashicorp/terraform-plugin-framework/types"
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6"
)
