// Package mirror is strata's provider mirror: it keeps provider packages
// in a directory and serves them to tofu over the Provider Network Mirror
// Protocol.
//
// The directory has the layout `tofu providers mirror` writes for a packed
// mirror:
//
//	<dir>/<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip
//
// so a directory made by that command, or copied into an air-gapped
// network, can be served as it is. A [Server] answers
//
//	GET /<hostname>/<namespace>/<type>/index.json      {"versions":{"0.1.0":{}}}
//	GET /<hostname>/<namespace>/<type>/<version>.json  {"archives":{"linux_amd64":{"url":"…zip","hashes":["h1:…","zh:…"]}}}
//	GET /<hostname>/<namespace>/<type>/<archive>.zip   the package
//
// and, when it has an upload token, PUT of an archive's path. The indexes
// are computed from the archives present, so an archive is served as soon
// as it is in place. The two hashes are the ones tofu itself computes and
// records in .terraform.lock.hcl: h1 is the Go module directory hash
// (golang.org/x/mod/sumdb/dirhash Hash1) of the archive's files, zh the
// SHA-256 of the archive file.
//
// tofu only talks to a network mirror over https; [CLIConfig] writes the
// tofu CLI configuration that points it at one, with a shared plugin cache.
package mirror
