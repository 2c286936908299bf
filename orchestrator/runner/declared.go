package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/strata-iac/strata/internal/tofufiles"
)

// rootSchema picks the variable and terraform blocks out of a root
// module's files; terraformSchema the backend and cloud blocks out of a
// terraform block.
var (
	rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "terraform"},
	}}
	terraformSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
	}}
)

// declared is what a root module declares that strata reads before tofu
// does.
type declared struct {
	// variables are the names of its variables.
	variables map[string]bool
	// backend is set when a terraform block holds a backend or a cloud
	// block: the module keeps its state where it says; cloud when it is
	// a cloud block.
	backend, cloud bool
}

// readDeclared reads what a root module declares, from the files tofu
// reads it from (.tf, .tofu and their JSON forms, a .tofu file standing in
// for the .tf of the same name). A file that does not parse is left to
// tofu to report.
func readDeclared(dir string) (declared, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return declared{}, fmt.Errorf("read the module of %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	parser := hclparse.NewParser()
	d := declared{variables: map[string]bool{}}
	for _, name := range tofufiles.Module(names) {
		path := filepath.Join(dir, name)
		var f *hcl.File
		if tofufiles.IsJSON(name) {
			f, _ = parser.ParseJSONFile(path)
		} else {
			f, _ = parser.ParseHCLFile(path)
		}
		if f == nil {
			continue
		}
		content, _, _ := f.Body.PartialContent(rootSchema)
		if content == nil {
			continue
		}
		for _, b := range content.Blocks {
			switch {
			case b.Type == "variable" && len(b.Labels) == 1:
				d.variables[b.Labels[0]] = true
			case b.Type == "terraform":
				if tc, _, _ := b.Body.PartialContent(terraformSchema); tc != nil {
					for _, inner := range tc.Blocks {
						d.backend = true
						d.cloud = d.cloud || inner.Type == "cloud"
					}
				}
			}
		}
	}
	return d, nil
}

// cloudBlock reports whether a backend configuration strata writes for
// the stack (spec.cloud, or a customConfiguration) is a cloud block.
func cloudBlock(config string) bool {
	if !strings.Contains(config, "cloud") {
		return false
	}
	f, diags := hclsyntax.ParseConfig([]byte(config), "backendConfig", hcl.InitialPos)
	if diags.HasErrors() {
		return false
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return false
	}
	for _, b := range body.Blocks {
		if b.Type == "cloud" {
			return true
		}
	}
	return false
}
