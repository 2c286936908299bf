package tofucontroller

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/strata-iac/strata/internal/cliconfig"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// cliConfigField is the field cliConfig resolves.
const cliConfigField = "spec.cliConfigSecretRef"

// cliConfig resolves spec.cliConfigSecretRef as the Tofu Controller's
// runner does: the Secret, in the object's namespace unless the reference
// names another, holds exactly one key, whose name ends in .tfrc, and
// that key is the tofu CLI configuration (credentials for HCP Terraform
// or a private registry). The Secret is an input like any other: from
// the repository, the inputs or the cluster, and the stack waits for it
// when none holds it. Another namespace's Secret is read only where
// cross-namespace references are allowed (AccessDenied otherwise, with
// the Tofu Controller's message).
func (b *builder) cliConfig() *environment.CLIConfig {
	tf := b.tf
	ref := tf.Spec.CliConfigSecretRef
	if ref == nil {
		return nil
	}
	if ref.Name == "" {
		b.problem(cliConfigField+" has no name", fmt.Sprintf("name the Secret that holds the tofu CLI configuration in %s, or remove %s", tf.File, cliConfigField))
		return nil
	}
	ns := ref.Namespace
	if ns == "" {
		ns = tf.Namespace
	}
	var sec *Object
	if ns == tf.Namespace {
		sec = b.r.Secret(ref.Name)
	} else {
		var ok bool
		if sec, ok = b.r.SecretIn(ns, ref.Name); !ok {
			b.r.Problem(diag.Problem{
				File:    tf.File,
				Object:  tf.ref(),
				Code:    diag.CodeAccessDenied,
				Message: fmt.Sprintf("cannot access secret %s/%s, cross-namespace references have been disabled", ns, ref.Name),
				Fix:     fmt.Sprintf("create Secret %s in namespace %s and remove %s.namespace, or start strata controller with --allow-cross-namespace-refs", ref.Name, tf.Namespace, cliConfigField),
			})
			return nil
		}
	}
	if sec == nil {
		b.r.Missing(diag.MissingInputOr(tf.File, tf.ref(), cliConfigField, KindSecret, ns, ref.Name, "remove "+cliConfigField+" from "+tf.File))
		return nil
	}
	if sec.Failed {
		return nil // a problem says why it could not be read
	}
	keys := slices.Sorted(maps.Keys(sec.Data))
	where := fmt.Sprintf("Secret %s/%s", ns, ref.Name)
	if len(keys) != 1 || !strings.HasSuffix(keys[0], ".tfrc") {
		msg := fmt.Sprintf("%s names %s, which has keys %s: the Tofu Controller reads a CLI configuration Secret of exactly one key, whose name ends in .tfrc", cliConfigField, where, strings.Join(keys, ", "))
		if len(keys) == 0 {
			msg = fmt.Sprintf("%s names %s, which has no data: it must hold one key, whose name ends in .tfrc, with the tofu CLI configuration", cliConfigField, where)
		}
		b.problem(msg, fmt.Sprintf("keep one key in %s, named like terraform.tfrc, that holds the CLI configuration (in %s)", where, orInput(sec.File)))
		return nil
	}
	text := sec.Data[keys[0]]
	if err := cliconfig.Check(text); err != nil {
		// The parser's message quotes positions, not the text.
		b.problem(fmt.Sprintf("%s: key %s of %s is not a tofu CLI configuration: %v", cliConfigField, keys[0], where, err),
			fmt.Sprintf("write the key as tofu's CLI configuration file, e.g. credentials \"app.terraform.io\" { token = \"…\" } (in %s)", orInput(sec.File)))
		return nil
	}
	return &environment.CLIConfig{Source: fmt.Sprintf("%s key %s", where, keys[0]), Text: text}
}

// orInput names where a ConfigMap or Secret came from for a fix: its file,
// or the input it was read from.
func orInput(file string) string {
	if file == "" {
		return "the cluster"
	}
	return file
}
