package flux

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// Names become directories under the state directory, S3 keys and tofu
// workspaces, so they are held to the rules Kubernetes holds them to:
// object names are DNS-1123 subdomains (lowercase letters, digits, '-' and
// '.'), and clientId and environment DNS-1123 labels (no '.'). Neither can
// hold a '/' or be "." or "..".

// checkObjectName reports an object whose metadata.name Kubernetes would
// refuse. It returns whether the name is valid.
func (l *loader) checkObjectName(o *object) bool {
	errs := validation.IsDNS1123Subdomain(o.Name())
	if len(errs) == 0 {
		return true
	}
	l.problem(diag.Problem{
		File:    o.File,
		Object:  o.ref(),
		Message: fmt.Sprintf("metadata.name %q is not a valid Kubernetes object name: %s", o.Name(), strings.Join(errs, "; ")),
		Fix:     fmt.Sprintf("rename the %s to lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, such as %q", o.Kind, suggestName(o.Name())),
	})
	return false
}

// checkLabel reports an init ConfigMap value that must be a DNS-1123
// label, such as clientId.
func (l *loader) checkLabel(cm *configMap, key string) bool {
	v := cm.Data[key]
	errs := validation.IsDNS1123Label(v)
	if len(errs) == 0 {
		return true
	}
	l.problem(diag.Problem{
		File:    cm.File,
		Object:  cm.ref(),
		Message: fmt.Sprintf("data.%s %q is not a DNS-1123 label: %s", key, v, strings.Join(errs, "; ")),
		Fix:     fmt.Sprintf("set %s to lowercase letters, digits and '-', starting and ending with a letter or digit, such as %q, in %s", key, suggestName(strings.ReplaceAll(v, ".", "-")), cm.File),
	})
	return false
}

var notNameChars = regexp.MustCompile(`[^a-z0-9.-]+`)

// suggestName turns a name into one Kubernetes accepts, for a fix.
func suggestName(name string) string {
	s := notNameChars.ReplaceAllString(strings.ToLower(name), "-")
	s = regexp.MustCompile(`[.-]*\.[.-]*`).ReplaceAllString(s, ".")
	s = strings.Trim(s, ".-")
	if len(s) > validation.DNS1123LabelMaxLength {
		s = strings.Trim(s[:validation.DNS1123LabelMaxLength], ".-")
	}
	if s == "" {
		return "name"
	}
	return s
}
