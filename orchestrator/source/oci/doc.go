// Package oci resolves, pulls and pushes stack artefacts in OCI registries,
// in the format Flux's OCIRepository reads and `flux push artifact` writes.
//
// Resolve lists a repository's tags and picks the highest one that
// satisfies a Masterminds semver constraint, exactly as Flux's
// source-controller does, then asks the registry for that tag's manifest
// digest. Pull fetches an artefact by that digest, verifies the manifest
// and the layer against their digests, and extracts the layer into a
// content-addressed cache: CacheDir/sha256/<hex>/. A digest that is cached
// is never downloaded again; an entry appears by an atomic rename, so a
// killed process never leaves half of one. Push uploads a directory with
// fluxcd/pkg/oci's own client and the options `flux push artifact` uses.
//
// Registries are reached over https, except the hosts listed in
// Options.Insecure, which may use plain http. Credentials come from
// STRATA_REGISTRY_USERNAME and STRATA_REGISTRY_PASSWORD when set, for every
// registry, and otherwise from a Docker config.json.
//
// No type of the underlying registry clients appears in this package's API.
package oci
