package tofucontroller

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// builder holds one Build: the object, the stack made of it, and what it
// reads of the render.
type builder struct {
	tf    *Terraform
	stack *environment.Stack
	r     Render
	// backendSecrets are the spec.backendConfigsFrom Secrets that r
	// does not hold.
	backendSecrets []BackendSecret
}

// problem reports a problem of the object: message, and fix, the way out.
func (b *builder) problem(message, fix string) {
	b.r.Problem(diag.Problem{File: b.tf.File, Object: b.tf.ref(), Message: message, Fix: fix})
}

// Build makes the stack of one Terraform object by the Tofu Controller's
// field rules: every field of its spec is honoured, or refused with a
// problem that says why (checkFields); vars, varsFrom, values,
// readInputsFromSecrets, backendConfigsFrom, fileMappings and the runner
// pod's environment are read from r's ConfigMaps and Secrets; and
// strata's annotations on the object (layer, contract, read-contracts)
// are read.
//
// What the Tofu Controller leaves to Flux is the caller's: the stack's
// source and path, its Kustomization, the dependsOn of that
// Kustomization and the stack's version. Its DependsOn holds the object's
// spec.dependsOn, sorted.
func Build(tf *Terraform, r Render) (*environment.Stack, []BackendSecret) {
	spec := tf.Spec
	s := &environment.Stack{
		Name:           tf.Name,
		File:           tf.File,
		Layer:          environment.LayerServices,
		ApprovePlan:    spec.ApprovePlan,
		ForceUnlock:    spec.Tfstate.ForceUnlock,
		LockIdentifier: spec.Tfstate.LockIdentifier,
		Suspend:        spec.Suspend,

		DisableDriftDetection:      spec.DisableDriftDetection,
		DestroyResourcesOnDeletion: spec.DestroyResourcesOnDeletion,
	}
	b := &builder{tf: tf, stack: s, r: r}
	b.checkFields()
	b.checkForceUnlock()
	s.Interval = b.duration("interval", spec.Interval)
	s.RetryInterval = b.duration("retryInterval", spec.RetryInterval)
	s.RetryBackoff = spec.RetryStrategy == "ExponentialBackoff"
	s.MaxRetryInterval = b.duration("maxRetryInterval", spec.MaxRetryInterval)
	s.HealthChecks = b.healthChecks()
	s.Webhooks, s.Object = b.webhooks()
	s.Run = environment.Run{
		Targets:            spec.Targets,
		VarFiles:           spec.TfVarsFiles,
		Inventory:          spec.EnableInventory,
		PlanNoLock:         spec.Plan.Lock != nil && !*spec.Plan.Lock,
		Parallelism:        spec.Parallelism,
		RefreshBeforeApply: spec.RefreshBeforeApply,
		PlanOnly:           spec.PlanOnly,
		Force:              spec.Force,
		Destroy:            spec.Destroy,
		Files:              b.fileMappings(),
		BackendConfigs:     b.backendConfigs(),
		Env:                b.runnerEnv(),
		CLIConfig:          b.cliConfig(),
	}
	volumeFiles, mounts := b.volumes()
	s.Run.Files, s.Run.Mounts = append(s.Run.Files, volumeFiles...), mounts
	if lt := spec.Tfstate.LockTimeout; lt != "" && lt != "0s" {
		s.Run.LockTimeout = b.duration("tfstate.lockTimeout", lt)
	}
	if ws := spec.Workspace; ws != "default" {
		s.Run.Workspace = ws
	}
	b.layer()
	b.stackVars()
	for _, d := range spec.DependsOn {
		s.DependsOn = append(s.DependsOn, d.Name)
	}
	slices.Sort(s.DependsOn)
	s.DependsOn = slices.Compact(s.DependsOn)
	if bc := spec.BackendConfig; bc != nil {
		// disable wins over customConfiguration, as in the Tofu
		// Controller: the module's own backend keeps the state.
		s.BackendDisabled = bc.Disable
		if !bc.Disable {
			s.BackendConfig = bc.CustomConfiguration
		}
		if k := b.kubernetesBackend(); k != "" {
			s.BackendConfig = k
		}
	}
	if block, cli := b.cloud(s.Run.CLIConfig); block != "" {
		// As in the Tofu Controller, spec.cloud stands for the backend.
		s.BackendConfig, s.BackendDisabled, s.Run.CLIConfig = block, false, cli
	}
	b.outputs()
	b.readInputs()
	b.values()
	s.ConsumesMatching = b.readContracts()
	return s, b.backendSecrets
}

// layer reads the strata.dev/layer annotation: the layer the stack runs
// in, services when it has none.
func (b *builder) layer() {
	tf := b.tf
	name, ok := tf.Annotations[environment.AnnotationLayer]
	if !ok {
		return
	}
	layer, ok := environment.ParseLayer(name)
	if !ok {
		b.problem(fmt.Sprintf("annotation %s is %q, which is not a layer", environment.AnnotationLayer, name),
			fmt.Sprintf("set annotation %s to one of: %s", environment.AnnotationLayer, strings.Join(environment.LayerNames(), ", ")))
	}
	b.stack.Layer = layer
}

// outputs reads spec.writeOutputsToSecret, the stack's contract, and the
// strata.dev/contract annotation that names it instead.
func (b *builder) outputs() {
	tf, s := b.tf, b.stack
	if w := tf.Spec.WriteOutputsToSecret; w != nil {
		s.Produces = w.Name
		s.ProducesOutputs = w.Outputs
		for _, o := range w.Outputs {
			if _, _, err := tcdata.Rename(o); err != nil {
				b.problem(fmt.Sprintf("spec.writeOutputsToSecret.outputs: %v", err),
					fmt.Sprintf("write each output as name or old:new in %s", tf.File))
			}
		}
	}
	if c := tf.Annotations[environment.AnnotationContract]; c != "" {
		s.Produces = c
	}
}

// checkForceUnlock checks spec.tfstate: forceUnlock is no, auto or yes,
// and yes names the one lock it releases.
func (b *builder) checkForceUnlock() {
	tf := b.tf
	fu, id := tf.Spec.Tfstate.ForceUnlock, tf.Spec.Tfstate.LockIdentifier
	switch {
	case fu == "" || fu == environment.ForceUnlockNo || fu == environment.ForceUnlockAuto:
	case fu == environment.ForceUnlockYes && id == "":
		b.problem(`spec.tfstate.forceUnlock is "yes" without spec.tfstate.lockIdentifier: strata releases only the lock a person names`,
			"set spec.tfstate.lockIdentifier to the ID of the lock to release (the run log names it), or use auto to release a lock whose holder is provably dead")
	case fu == environment.ForceUnlockYes:
	default:
		b.problem(fmt.Sprintf("spec.tfstate.forceUnlock is %q, which is not yes, no or auto", fu),
			"use auto (a lock whose holder is provably dead is released), yes with spec.tfstate.lockIdentifier (that lock is released), or no")
	}
}

// duration parses a duration field of the spec, as Kubernetes parses a
// metav1.Duration; 0 when the field is unset.
func (b *builder) duration(field, value string) time.Duration {
	if value == "" {
		return 0
	}
	d, err := time.ParseDuration(value)
	if err == nil && d > 0 {
		return d
	}
	tf := b.tf
	b.problem(fmt.Sprintf("spec.%s is %q, which is not a positive duration", field, value),
		fmt.Sprintf("write spec.%s as a Go duration such as 30m, 1h or 90s in %s", field, tf.File))
	return 0
}

// readContracts parses the strata.dev/read-contracts annotation: one
// "variable: regex" per line.
func (b *builder) readContracts() []environment.MatchInput {
	tf := b.tf
	value, ok := tf.Annotations[environment.AnnotationReadContracts]
	if !ok {
		return nil
	}
	var out []environment.MatchInput
	for _, line := range strings.Split(value, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		as, re, found := strings.Cut(line, ":")
		as, re = strings.TrimSpace(as), strings.TrimSpace(re)
		bad := func(msg string) {
			b.problem(fmt.Sprintf("annotation %s line %q %s", environment.AnnotationReadContracts, line, msg),
				"write one \"variable: regex\" per line, e.g. \"configuration: (account|network)\"")
		}
		switch {
		case !found || as == "" || re == "":
			bad("is not \"variable: regex\"")
			continue
		case !environment.ValidVarName(as):
			bad(fmt.Sprintf("names variable %q, which is not a valid variable name", as))
			continue
		}
		if _, err := regexp.Compile("^(?:" + re + ")$"); err != nil {
			bad(fmt.Sprintf("has a regular expression that does not compile: %v", err))
			continue
		}
		out = append(out, environment.MatchInput{As: as, Regex: re})
	}
	return out
}
