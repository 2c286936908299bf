// Package flux loads one environment of a Flux repository into the model
// of package environment, and validates all of it before anything runs.
//
// The entry point is any directory Flux could reconcile: the seed layout's
// environments/<client>/<env>, a bootstrap clusters/<name>, or the
// directory of a single Flux Kustomization. The repository root is the root
// of the git work tree that holds it.
//
// The loader renders the repository exactly as Flux does, with Flux's own
// code: fluxcd/pkg/kustomize builds every path (Kustomize's krusty:
// overlays, patches, components, generators, namePrefix, images) and runs
// postBuild substitution, and every Flux Kustomization rendered is followed
// in turn, as kustomize-controller would apply and reconcile it. Of what is
// rendered it reads Kustomization, Terraform (infra.contrib.fluxcd.io/
// v1alpha2), OCIRepository, GitRepository, Bucket, ConfigMap and Secret; other
// kinds are skipped and counted. Input that Flux or the API server would
// refuse (a duplicate key, an unknown kind of a Flux group, a misspelt
// group, broken substitution) is a problem naming the file and the fix.
//
// SOPS-encrypted manifests are decrypted where kustomize-controller
// decrypts them (decrypt.go), with package decryption and the keys the
// context carries: only for a Kustomization with spec.decryption.provider
// sops, after the kustomize build and before substitution, together with
// the files its secretGenerators read (not its configMapGenerators'). A
// decrypted Secret is marked private. An encrypted Secret that is not
// decrypted (no spec.decryption, the decrypt: disabled annotation) is a
// problem, as kustomize-controller refuses to apply it; so is a value no
// key opens, naming the keys it was encrypted for. The entry directory's
// objects are decrypted as the Kustomization whose spec.path it is says.
// One load decrypts through one strata-sops process, started on the first
// encrypted value (never when there is none) and ended when the load
// returns; without strata-sops each encrypted value is a problem saying
// how to install it.
//
// Each Terraform object becomes a stack by package tofucontroller's rules
// (buildStack): its fields, variables, backend settings, files and
// environment, read from the ConfigMaps and Secrets of the render and of
// the inputs, which buildStack hands it (stackRender). What Flux decides
// of a stack is the loader's: its source, its Kustomization and that
// Kustomization's dependsOn, its version, and the checks across stacks
// (validate.go): a Secret that no stack writes and the repository does
// not hold is a problem, unless the entry is optional.
//
// A stack's source (sources.go, selfsource.go) is this repository's
// checkout when its sourceRef is GitRepository flux-system, a
// GitRepository whose spec.url is one of the checkout's git remotes
// (compared as normalGitURL reduces them: SSH, scp-like and HTTPS forms,
// .git and case alike), or one that --self-source names (Options, carried
// in the context by WithOptions); a Kustomization is followed only from
// such a source. Another GitRepository, and a Bucket, become
// Source.Git and Source.Bucket with their spec and their spec.secretRef
// Secret's data (Credentials: never printed, never kept in the render
// cache), fetched by package source when the stack runs.
//
// strata's own settings (state backend, contract store, runner limit,
// provider mirror, IAM allow-list, state directory) are keys of the init
// ConfigMap. Package environment names them and parses them
// (ParseSettings) once, while the environment loads; they are kept as
// Environment.Settings, and every bad key is a problem with its fix. The
// command line's Overrides are applied with Settings.With. Nothing else
// reads those keys.
//
// Names are checked as Kubernetes checks them (names.go): object names are
// DNS-1123 subdomains, clientId and environment DNS-1123 labels, so none can
// climb out of or nest inside the state directory. CheckIdentity
// (identity.go) refuses an environment whose clientId and environment
// another environment of the repository also names.
//
// LoadCached (cached.go) is Load for a reconcile: it keeps the rendered
// environment in the state directory with everything its render read
// (package rendercache; the loader records each read through
// recordingFS), and returns the environment kept while none of it
// changed. Only an environment without problems is kept.
//
// No input makes the loader spin (limits.go, elide.go): a file past one of
// the limits (its size, a mapping's keys, nesting, alias expansion, the
// objects of one build) is a problem naming the file and the limit, found
// before kustomize reads it. kustomize's reader takes time that grows
// with the square of a mapping's keys; a mapping of more than 1,000 keys
// that holds no anchor, alias or merge key is read past it, as a
// placeholder put back in the built objects, which keeps Flux's rendering
// (a build that changes the mapping is made again with kustomize reading
// it). kustomize builds run on a goroutine of their own, abandoned when
// the context is done.
//
// The load is serial; a goroutine of its own reads ahead of it
// (readahead.go): the entry directory's manifests, each queued
// Kustomization's directory, its ignore files (for the artifact rules),
// kustomization file and the manifests it lists, and the stacks' module
// directories, stat'd, read and parsed in the order the load takes them,
// a bounded number at a time. The load takes each answer once and reads
// for itself whatever was not read ahead or failed, so that every error
// is its own read's. Two more
// goroutines decode for it: the entry directory's objects while it
// collects the next (decodebehind.go), and the Terraform objects' JSON
// into the maps the field checks read, ahead of the stacks' builds
// (rawahead.go). What a Kustomization's build reads of its spec is read
// as the object is decoded (generating), so a plain build decodes no map
// of the object again.
//
// LoadNamespace (cluster.go) builds the environment of one namespace of a
// cluster for strata controller with the same rules: the namespace's
// Terraform objects, ConfigMaps and Secrets as if one Kustomization had
// applied them, each stack's code the artifact source-controller made of
// its spec.sourceRef (Source.Artifact).
package flux
