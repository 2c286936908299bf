#!/usr/bin/env bash
# Builds Flux's source-controller from its Go module into
# bin/source-controller, and copies its CRDs (config/crd/bases) beside it
# into bin/source-controller-crds/. The cluster-mode tests run it as a real
# process outside the cluster, with a kubeconfig. `go install
# module@version` refuses it because of its replace directives, so the
# module is downloaded, copied to a writable tree and built there. v1.9.0
# asks for no newer Go than 1.26, and every module it needs is served.
set -euo pipefail
version="${SOURCE_CONTROLLER_VERSION:-v1.9.0}"
out="${1:-bin/source-controller}"
stamp="$out.version"
if [ -x "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
  echo "source-controller ${version} already built at ${out}"
  exit 0
fi
mkdir -p "$(dirname "$out")"
# A build is kept in the user's cache, as the cluster's is, so that a fresh
# checkout on the same machine copies it instead of building it again.
cache="${STRATA_SOURCE_CONTROLLER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/strata/source-controller}/${version}"
if [ -x "$cache/source-controller" ] && [ -d "$cache/crds" ]; then
  cp "$cache/source-controller" "$out"
  rm -rf "$out-crds"
  cp -r "$cache/crds" "$out-crds"
  echo "$version" > "$stamp"
  echo "source-controller ${version} copied from ${cache}"
  exit 0
fi
echo "downloading github.com/fluxcd/source-controller@${version}"
dir=$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "github.com/fluxcd/source-controller@${version}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$dir" ]; then
  echo "could not download github.com/fluxcd/source-controller@${version}" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$dir/." "$work/"
chmod -R u+w "$work"
# The module's go.mod replaces its api module with ./api, which the module
# zip leaves out: the api module of the same version takes its place.
api=$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "github.com/fluxcd/source-controller/api@${version}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$api" ]; then
  echo "could not download github.com/fluxcd/source-controller/api@${version}" >&2
  exit 1
fi
mkdir -p "$work/api"
cp -r "$api/." "$work/api/"
chmod -R u+w "$work/api"
echo "building source-controller ${version} (a few minutes the first time)"
abs_out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
(cd "$work" && GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -o "$abs_out" .)
rm -rf "$out-crds"
mkdir -p "$out-crds"
cp "$work"/config/crd/bases/*.yaml "$out-crds/"
rm -rf "$cache.tmp" && mkdir -p "$cache.tmp"
cp "$abs_out" "$cache.tmp/source-controller"
cp -r "$out-crds" "$cache.tmp/crds"
rm -rf "$cache" && mv "$cache.tmp" "$cache"
echo "$version" > "$stamp"
echo "built source-controller ${version} at ${out} (kept in ${cache})"
