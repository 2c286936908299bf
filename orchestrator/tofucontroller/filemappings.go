package tofucontroller

import (
	"fmt"
	"path/filepath"
	"regexp"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// fileMappingPath is the Tofu Controller's pattern for
// spec.fileMappings[].path.
var fileMappingPath = regexp.MustCompile(`^(.?[/_a-zA-Z0-9]{1,})*$`)

// fileMappings resolves spec.fileMappings: each entry's Secret key, from
// the Secrets in the repository, as the Tofu Controller reads it from the
// cluster. A missing Secret or key, a location that is neither home nor
// workspace, or a path that leaves its location is a problem; the
// content never reaches a message.
func (b *builder) fileMappings() []environment.File {
	tf := b.tf
	var files []environment.File
	for i, fm := range tf.Spec.FileMappings {
		bad := func(msg, fix string) {
			b.problem(fmt.Sprintf("spec.fileMappings[%d] of stack %s %s", i, tf.Name, msg), fix+" in "+tf.File)
		}
		switch fm.Location {
		case environment.FileHome, environment.FileWorkspace:
		default:
			bad(fmt.Sprintf("has location %q", fm.Location), "set location to home or workspace")
			continue
		}
		if fm.Path == "" || !fileMappingPath.MatchString(fm.Path) || !filepath.IsLocal(fm.Path) {
			bad(fmt.Sprintf("has path %q, which is not a path inside its location", fm.Path),
				"write a relative path of letters, digits, _, / and dots that stays inside the location, e.g. .aws/credentials")
			continue
		}
		ref := fm.SecretRef
		if ref.Name == "" || ref.Key == "" {
			bad("has no secretRef name and key", "set secretRef: {name: SECRET, key: KEY}")
			continue
		}
		sec := b.r.Secret(ref.Name)
		if sec == nil {
			b.r.Missing(diag.MissingInput(b.tf.File, b.tf.ref(), fmt.Sprintf("spec.fileMappings[%d]", i), KindSecret, b.tf.Namespace, ref.Name, ref.Key))
			continue
		}
		content, ok := sec.Data[ref.Key]
		if !ok {
			bad(fmt.Sprintf("names key %q of Secret %s (%s), which has no such key", ref.Key, ref.Name, sec.File),
				fmt.Sprintf("add key %s to Secret %s in %s, or name one of its keys", ref.Key, ref.Name, sec.File))
			continue
		}
		files = append(files, environment.File{
			Location: fm.Location,
			Path:     filepath.Clean(fm.Path),
			Source:   fmt.Sprintf("Secret %s key %s", ref.Name, ref.Key),
			Content:  []byte(content),
		})
	}
	return files
}
