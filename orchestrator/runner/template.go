package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"text/template"

	"github.com/Masterminds/sprig/v3"

	"github.com/strata-iac/strata/internal/tofufiles"
)

// mainTemplate is the root module file the Tofu Controller renders before
// it plans: main.tf.tpl, a Go template with Helm's syntax and functions.
const mainTemplate = tofufiles.MainTemplate

// renderMainTemplate renders dir's main.tf.tpl, when it has one, into
// main.tf, as the Tofu Controller does: over the stack's variables as the
// var file holds them (vars, JSON), spec.values also as .Values, with
// sprig's functions. Without main.tf.tpl it does nothing.
func renderMainTemplate(dir string, vars []byte) error {
	path := filepath.Join(dir, mainTemplate)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	data := map[string]any{}
	if err := json.Unmarshal(vars, &data); err != nil {
		return fmt.Errorf("render %s: %w", mainTemplate, err)
	}
	data["Values"] = data[ValuesVar]
	tmpl, err := template.New(mainTemplate).Delims("{{", "}}").Funcs(sprig.TxtFuncMap()).ParseFiles(path)
	if err != nil {
		return fmt.Errorf("render %s: %w", mainTemplate, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "main.tf"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("render %s: %w", mainTemplate, err)
	}
	if err := tmpl.Execute(f, data); err != nil {
		_ = f.Close()
		return fmt.Errorf("render %s: %w", mainTemplate, err)
	}
	return f.Close()
}
