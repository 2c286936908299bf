// Package tofucontroller turns one Tofu Controller Terraform object
// (infra.contrib.fluxcd.io) into a stack of the model, by the Tofu
// Controller's field rules.
//
// In: a Terraform object as package flux rendered it (Terraform: its
// name, namespace, file, labels and annotations, the object as rendered
// and its Spec), and a Render, through which the rules read the
// ConfigMaps and Secrets the object names and record problems and notes.
// Out: an environment.Stack (Build), and the spec.backendConfigsFrom
// Secrets nothing holds (BackendSecret), which the render checks once
// every stack is known.
//
// The rules, one file each:
//   - fields.go: every field of TerraformSpec is honoured or refused with
//     the reason (terraformFields); an unknown field is a problem with the
//     nearest field's name, and notes.go notes what is accepted and
//     changes nothing (spec.breakTheGlass, the branch planner's labels);
//   - vars.go and values.go: spec.vars, then spec.varsFrom, later entries
//     winning, with varsKeys' old:new renames; a Secret the render does
//     not hold is another stack's output Secret (ContractVars), read when
//     the stack runs; readInputsFromSecrets and the spec.values template;
//   - backendconfigs.go: spec.backendConfigsFrom, as -backend-config
//     pairs for init;
//   - filemappings.go: spec.fileMappings, files written before init;
//   - runnerenv.go: the runner pod's env and envFrom, as the kubelet
//     makes a container's environment;
//   - stack.go: the rest of the spec (approvePlan, tfstate, intervals,
//     targets, workspace, writeOutputsToSecret) and strata's annotations
//     (layer, contract, read-contracts).
//
// What the Tofu Controller leaves to Flux stays in package flux: the
// stack's source (spec.sourceRef), its Kustomization and that
// Kustomization's dependsOn, its version, and the checks across stacks.
//
// Spec is the part of the spec the rules read, decoded as leniently as
// the YAML allows, so that a bad value is a problem of its field. The
// whole TerraformSpec, with its status, is package v1alpha2's, which
// `strata controller` serves as a CRD; a test keeps terraformFields and
// it in step. The Tofu Controller's own API module is not served to this
// build, so both are strata's.
package tofucontroller
