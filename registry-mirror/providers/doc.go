// Package providers is the registry mirror's provider half: it keeps
// provider packages in a [storage.Storage] in the layout
// `tofu providers mirror` writes for a packed mirror,
//
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip.hashes
//
// and serves them to tofu over the Provider Network Mirror Protocol:
//
//	GET /<hostname>/<namespace>/<type>/index.json      {"versions":{"0.1.0":{}}}
//	GET /<hostname>/<namespace>/<type>/<version>.json  {"archives":{"linux_amd64":{"url":"…zip","hashes":["h1:…","zh:…"]}}}
//	GET /<hostname>/<namespace>/<type>/<archive>.zip   the package
//	PUT /<hostname>/<namespace>/<type>/<archive>.zip   an upload, with the upload token
//
// With [Options].SigningKey it is a provider registry as well, for the
// providers under [Options].RegistryHostname:
//
//	GET /v1/providers/<namespace>/<type>/versions                        {"versions":[{"version":"0.1.0","protocols":[],"platforms":[…]}]}
//	GET /v1/providers/<namespace>/<type>/<version>/download/<os>/<arch>  filename, download_url, shasum, shasums_url, shasums_signature_url, signing_keys
//	GET /v1/providers/<namespace>/<type>/<version>/terraform-provider-<type>_<version>_SHA256SUMS[.sig]
//
// and [Server.Services] names providers.v1 for service discovery. With
// [Options].Upstream, a registry host[:port], it is a pull-through cache
// for the providers under [Options].UpstreamHostname
// (registry.opentofu.org by default): their indexes list the upstream's
// versions and platforms too, and an archive the store does not hold is
// downloaded from the upstream, checked against the upstream's SHA256SUMS
// and that file's signature, stored, and served from the store from then
// on. A package that does not match is not stored; the client gets 502
// Bad Gateway.
//
// The indexes are computed from the archives present, so an archive is
// served as soon as it is in place. The two hashes of an archive are the
// ones tofu itself computes and records in .terraform.lock.hcl: h1 is the
// Go module directory hash (golang.org/x/mod/sumdb/dirhash Hash1) of the
// archive's files, zh the SHA-256 of the archive file. They are computed
// when the archive is added and kept in the .hashes file beside it, so
// serving an index never reads an archive. Signing keys and key rings
// ([SigningKey], [KeyRing]) keep the OpenPGP library inside this package.
package providers
