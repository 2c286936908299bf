package main

import (
	"maps"
	"slices"
)

// shape is one way of writing every stack of the repository: what the
// shapes users write add to the plain one.
type shape struct {
	// kustomization is added to each Flux Kustomization's spec.
	kustomization string
	// kustomize is added to each stack's kustomization file.
	kustomize string
	// value is the Terraform object's var.name, NAME standing for the
	// stack's name.
	value string
	// moduleDirs gives each stack a code directory of its own.
	moduleDirs bool
	// files are more files of the repository.
	files map[string]string
}

// clusterVars is the ConfigMap the substituteFrom shape reads, in the
// environment's directory, as the seed's init ConfigMap is.
const clusterVars = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cluster-vars
  namespace: flux-system
data:
  environment: dev
  region: eu-west-1
  clientId: bench
`

// shapes are the shapes .ci/bench.sh measures, each against plain:
//   - plain: literal vars, one shared code directory;
//   - substitute: postBuild.substitute on every Kustomization, ${…} in
//     the Terraform object's vars;
//   - substitutefrom: postBuild.substituteFrom a ConfigMap of the
//     environment on every Kustomization, as the seed's layout gives every
//     stack its ${environment} and ${region};
//   - targetnamespace: every Kustomization's spec.targetNamespace;
//   - patches: spec.patches that patch the Terraform object;
//   - components: a kustomize Component in every kustomization file;
//   - nameprefix: spec.namePrefix and spec.commonMetadata labels;
//   - moduledirs: one code directory per stack;
//   - seed: substituteFrom and one code directory per stack together, the
//     seed's layout.
var shapes = map[string]shape{
	"plain": {value: "NAME"},
	"substitute": {
		kustomization: "  postBuild:\n    substitute:\n      environment: dev\n      region: eu-west-1\n",
		value:         "NAME-${environment}-${region}",
	},
	"substitutefrom": {
		kustomization: "  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: cluster-vars\n",
		value:         "NAME-${environment}-${region}",
		files:         map[string]string{"environments/bench/dev/cluster-vars.yaml": clusterVars},
	},
	"targetnamespace": {
		kustomization: "  targetNamespace: apps\n",
		value:         "NAME",
	},
	"patches": {
		kustomization: "  patches:\n    - target:\n        kind: Terraform\n      patch: |\n        - op: replace\n          path: /spec/interval\n          value: 1h\n        - op: add\n          path: /metadata/labels\n          value: {tier: bench}\n",
		value:         "NAME",
	},
	"components": {
		kustomize: "components:\n  - ../../components/common\n",
		value:     "NAME",
		files: map[string]string{"flux-apps/components/common/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
commonAnnotations:
  team: platform
patches:
  - target:
      kind: Terraform
    patch: |
      - op: replace
        path: /spec/interval
        value: 1h
`},
	},
	"nameprefix": {
		kustomization: "  namePrefix: bench-\n  commonMetadata:\n    labels:\n      team: platform\n      environment: dev\n",
		value:         "NAME",
	},
	"moduledirs": {value: "NAME", moduleDirs: true},
	"seed": {
		kustomization: "  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: cluster-vars\n",
		value:         "NAME-${environment}-${region}",
		moduleDirs:    true,
		files:         map[string]string{"environments/bench/dev/cluster-vars.yaml": clusterVars},
	},
}

// shapeNames are the shapes' names, sorted.
func shapeNames() []string { return slices.Sorted(maps.Keys(shapes)) }
