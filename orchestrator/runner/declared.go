package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// rootSchema picks the variable blocks out of a root module's files.
var rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "variable", LabelNames: []string{"name"}}}}

// declaredVariables returns the names of the variables a root module
// declares, from its .tf and .tf.json files. A file that does not parse is
// left to tofu to report.
func declaredVariables(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read variables of %s: %w", dir, err)
	}
	parser := hclparse.NewParser()
	declared := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		path := filepath.Join(dir, name)
		var f *hcl.File
		switch {
		case strings.HasSuffix(name, ".tf"):
			f, _ = parser.ParseHCLFile(path)
		case strings.HasSuffix(name, ".tf.json"):
			f, _ = parser.ParseJSONFile(path)
		default:
			continue
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
