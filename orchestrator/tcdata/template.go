package tcdata

import (
	"bytes"
	"text/template"
)

// Template parses text as the Tofu Controller parses its templates, with
// the ${{ }} delimiters: spec.values, spec.healthChecks' address and url,
// spec.webhooks' testExpression and errorMessageTemplate.
func Template(name, text string) (*template.Template, error) {
	return template.New(name).Delims(LeftDelim, RightDelim).Parse(text)
}

// RenderTemplate parses text as Template does and executes it over data.
func RenderTemplate(name, text string, data any) (string, error) {
	t, err := Template(name, text)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}
