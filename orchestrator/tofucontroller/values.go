package tofucontroller

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// readInputs reads spec.readInputsFromSecrets: an entry that names a
// Secret of the repository is decoded now (SecretInputs), any other names
// another stack's contract (Consumes), checked once every stack is known.
func (b *builder) readInputs() {
	tf, s := b.tf, b.stack
	for i, in := range tf.Spec.ReadInputsFromSecrets {
		as := in.As
		if as == "" {
			as = strings.ReplaceAll(in.Name, "-", "_")
		}
		sec := b.r.Secret(in.Name)
		if sec == nil {
			s.Consumes = append(s.Consumes, environment.Input{Contract: in.Name, As: as})
			continue
		}
		data, err := tcdata.FromSecretData(sec.Data)
		if err != nil {
			b.r.Problem(diag.Problem{
				File:    sec.File,
				Object:  sec.ref(),
				Message: fmt.Sprintf("spec.readInputsFromSecrets[%d] of Terraform %s reads this Secret: %v", i, tf.Name, err),
				Fix:     fmt.Sprintf("give each key of %s with a .type companion a value of that type, in %s", sec.Name, sec.File),
			})
			continue
		}
		if s.SecretInputs == nil {
			s.SecretInputs = map[string]map[string]any{}
		}
		s.SecretInputs[as] = data
	}
}

// values parses spec.values, the template rendered into var.values.
func (b *builder) values() {
	tf, s := b.tf, b.stack
	if len(tf.Spec.Values) == 0 || string(tf.Spec.Values) == "null" {
		return
	}
	var raw any
	if err := json.Unmarshal(tf.Spec.Values, &raw); err != nil {
		b.problem("spec.values: "+err.Error(), "write spec.values as a YAML mapping in "+tf.File)
		return
	}
	v, err := tcdata.ParseValues(raw)
	if err != nil {
		b.problem(fmt.Sprintf("spec.values: %v", err),
			fmt.Sprintf("write each template in spec.values as ${{ .AS.KEY }}, AS a readInputsFromSecrets entry's as, in %s", tf.File))
		return
	}
	s.Values = v.Text()
}
