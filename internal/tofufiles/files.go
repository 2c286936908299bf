package tofufiles

import (
	"slices"
	"strings"
)

// The extensions of a module's files, longest first where one ends
// another.
const (
	ExtTF       = ".tf"
	ExtTFJSON   = ".tf.json"
	ExtTofu     = ".tofu"
	ExtTofuJSON = ".tofu.json"
)

// Exts are the extensions of the files tofu reads a module from.
var Exts = []string{ExtTF, ExtTFJSON, ExtTofu, ExtTofuJSON}

// Ext returns the module file extension name ends with, or "" when tofu
// reads no module code from such a file.
func Ext(name string) string {
	switch {
	case strings.HasSuffix(name, ExtTFJSON):
		return ExtTFJSON
	case strings.HasSuffix(name, ExtTofuJSON):
		return ExtTofuJSON
	case strings.HasSuffix(name, ExtTF):
		return ExtTF
	case strings.HasSuffix(name, ExtTofu):
		return ExtTofu
	}
	return ""
}

// IsCode reports whether tofu reads module code from a file named name:
// it has a module extension and is not hidden or an editor's backup.
func IsCode(name string) bool {
	return Ext(name) != "" && !ignored(name)
}

// IsJSON reports whether name is a module file in tofu's JSON syntax.
func IsJSON(name string) bool {
	e := Ext(name)
	return e == ExtTFJSON || e == ExtTofuJSON
}

// ignored is tofu's rule for the files of a directory it never reads:
// hidden files, and the backups of vim and emacs.
func ignored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#")
}

// Module returns, of the file names of one directory, those tofu reads
// the module from, sorted: the code files, less each .tf or .tf.json
// file that a .tofu or .tofu.json file of the same name replaces.
func Module(names []string) []string {
	code := map[string]bool{}
	for _, n := range names {
		if IsCode(n) {
			code[n] = true
		}
	}
	var out []string
	for n := range code {
		switch e := Ext(n); e {
		case ExtTF, ExtTFJSON:
			base := strings.TrimSuffix(n, e)
			if code[base+strings.Replace(e, ExtTF, ExtTofu, 1)] {
				continue
			}
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// MainTemplate is the root module file the Tofu Controller renders into
// main.tf before it plans (a Go template over the stack's variables).
const MainTemplate = "main.tf.tpl"

// IsRootCode reports whether a file of a root module's directory makes
// module code: a module file (IsCode), or MainTemplate, which becomes
// main.tf.
func IsRootCode(name string) bool {
	return IsCode(name) || name == MainTemplate
}
