// Package modules is the registry mirror's module registry: it keeps
// module archives, gzipped tars of a module's directory, in a
// [storage.Storage] at modules/<namespace>/<name>/<system>/<version>.tar.gz,
// and serves them to tofu over the Module Registry Protocol:
//
//	GET /v1/modules/<namespace>/<name>/<system>/versions            {"modules":[{"versions":[{"version":"1.0.0"}]}]}
//	GET /v1/modules/<namespace>/<name>/<system>/<version>/download  204, X-Terraform-Get: ../<version>.tar.gz
//	GET /v1/modules/<namespace>/<name>/<system>/<version>.tar.gz    the module
//	PUT /v1/modules/<namespace>/<name>/<system>/<version>.tar.gz    an upload, with the upload token
//
// A published version never changes: the same bytes again succeed, other
// bytes fail with [protocol.ErrExists]. [Pack] packs a module directory
// as such an archive, byte for byte the same for the same files.
// Modules need no tofu configuration: their source names the registry's
// host, as in
//
//	source = "mirror.internal:8443/acme/network/aws"
//
// Service discovery (/.well-known/terraform.json) is the server's, which
// wires this package with the providers'.
package modules
