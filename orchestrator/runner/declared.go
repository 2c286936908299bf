package runner

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/strata-iac/strata/internal/tofufiles"
)

// rootSchema picks the variable blocks out of a root module's files.
var rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "variable", LabelNames: []string{"name"}}}}

// declaredVariables returns the names of the variables a root module
// declares, from the files tofu reads it from (.tf, .tofu and their JSON
// forms, a .tofu file standing in for the .tf of the same name). A file
// that does not parse is left to tofu to report.
func declaredVariables(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read variables of %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	parser := hclparse.NewParser()
	declared := map[string]bool{}
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
			if len(b.Labels) == 1 {
				declared[b.Labels[0]] = true
			}
		}
	}
	return declared, nil
}
