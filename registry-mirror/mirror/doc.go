// Package mirror is strata's provider mirror and module registry: it keeps
// provider packages and module archives in a directory or an S3 bucket,
// and serves them to tofu over the Provider Network Mirror Protocol and
// the Module Registry Protocol; with a [SigningKey], over the Provider
// Registry Protocol too; and with an upstream, as a pull-through cache.
//
// A [Store] ([NewStore] for a directory, [NewS3Store] for a bucket) has
// the layout `tofu providers mirror` writes for a packed mirror, plus the
// modules:
//
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip.hashes
//	modules/<namespace>/<name>/<system>/<version>.tar.gz
//
// so a directory made by that command, or copied into an air-gapped
// network, can be served as it is. A [Server] answers
//
//	GET /<hostname>/<namespace>/<type>/index.json      {"versions":{"0.1.0":{}}}
//	GET /<hostname>/<namespace>/<type>/<version>.json  {"archives":{"linux_amd64":{"url":"…zip","hashes":["h1:…","zh:…"]}}}
//	GET /<hostname>/<namespace>/<type>/<archive>.zip   the package
//	GET /.well-known/terraform.json                    {"modules.v1":"/v1/modules/"}
//	GET /v1/modules/<namespace>/<name>/<system>/versions            {"modules":[{"versions":[{"version":"1.0.0"}]}]}
//	GET /v1/modules/<namespace>/<name>/<system>/<version>/download  204, X-Terraform-Get: ../<version>.tar.gz
//	GET /v1/modules/<namespace>/<name>/<system>/<version>.tar.gz    the module
//
// and, when it has an upload token, PUT of a provider archive's or a
// module archive's path. With [Options].SigningKey it is a provider
// registry as well, for the providers under [Options].RegistryHostname:
//
//	GET /v1/providers/<namespace>/<type>/versions                        {"versions":[{"version":"0.1.0","protocols":[],"platforms":[…]}]}
//	GET /v1/providers/<namespace>/<type>/<version>/download/<os>/<arch>  filename, download_url, shasum, shasums_url, shasums_signature_url, signing_keys
//	GET /v1/providers/<namespace>/<type>/<version>/terraform-provider-<type>_<version>_SHA256SUMS[.sig]
//
// and service discovery names providers.v1. With [Options].Upstream, a
// registry host[:port], it is a pull-through cache for the providers under
// [Options].UpstreamHostname (registry.opentofu.org by default): their
// indexes list the upstream's versions and platforms too, and an archive
// the store does not hold is downloaded from the upstream, checked against
// the upstream's SHA256SUMS and that file's signature, stored, and served
// from the store from then on. A package that does not match is not
// stored; the client gets 502 Bad Gateway. The indexes are computed from the archives
// present, so an archive is served as soon as it is in place. The two
// hashes of a provider archive are the ones tofu itself computes and
// records in .terraform.lock.hcl: h1 is the Go module directory hash
// (golang.org/x/mod/sumdb/dirhash Hash1) of the archive's files, zh the
// SHA-256 of the archive file. They are computed when the archive is
// added and kept in the .hashes file beside it, so serving an index never
// reads an archive.
//
// tofu only talks to a network mirror or a registry over https;
// orchestrator/tofu's CLIConfig writes the tofu CLI configuration that
// points it at a mirror, with a shared plugin cache. Modules need no configuration: their
// source names the registry's host, as in
//
//	source = "mirror.internal:8443/acme/network/aws"
package mirror
