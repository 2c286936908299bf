// Package mirror is strata's provider mirror and module registry server:
// it wires the parts that do the jobs into one https server over one
// store.
//
// A [Store] ([NewStore] for a directory, [NewS3Store] for a bucket) is a
// [storage.Storage] with the provider packages of package providers and
// the module archives of package modules in it, in one layout:
//
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip.hashes
//	modules/<namespace>/<name>/<system>/<version>.tar.gz
//
// so a directory made by `tofu providers mirror`, or copied into an
// air-gapped network, can be served as it is. A [Server] routes the
// providers' protocols (network mirror; provider registry with a signing
// key; pull-through with an upstream), the module registry protocol, and
// the service discovery document that names them:
//
//	GET /.well-known/terraform.json   {"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}
//
// Its [Options] are the providers' options; the upload token, size limit
// and logger apply to modules too. tofu only talks to a network mirror or
// a registry over https, which [Server.ListenAndServeTLS] serves;
// orchestrator/tofu's CLIConfig writes the tofu CLI configuration that
// points tofu at a mirror, with a shared plugin cache. Modules need no
// configuration: their source names the registry's host, as in
//
//	source = "mirror.internal:8443/acme/network/aws"
package mirror
