#!/usr/bin/env bash
# Usage: build-flux-controller.sh NAME VERSION OUT
#
# Builds one of Flux's controllers (source-controller,
# notification-controller) from its Go module github.com/fluxcd/NAME at
# VERSION into OUT, and copies its CRDs (config/crd/bases) beside it into
# OUT-crds/. The cluster-mode tests run it as a real process outside the
# cluster, with a kubeconfig. `go install module@version` refuses it
# because of its replace directives, so the module is downloaded, copied
# to a writable tree and built there, with its api module of the same
# version in place of ./api.
set -euo pipefail
name="$1"
version="$2"
out="$3"
module="github.com/fluxcd/${name}"
stamp="$out.version"
if [ -x "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
  echo "${name} ${version} already built at ${out}"
  exit 0
fi
mkdir -p "$(dirname "$out")"
# A build is kept in the user's cache, as the cluster's is, so that a fresh
# checkout on the same machine copies it instead of building it again.
cache="${XDG_CACHE_HOME:-$HOME/.cache}/strata/${name}/${version}"
if [ -x "$cache/${name}" ] && [ -d "$cache/crds" ]; then
  cp "$cache/${name}" "$out"
  rm -rf "$out-crds"
  cp -r "$cache/crds" "$out-crds"
  echo "$version" > "$stamp"
  echo "${name} ${version} copied from ${cache}"
  exit 0
fi
echo "downloading ${module}@${version}"
dir=$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "${module}@${version}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$dir" ]; then
  echo "could not download ${module}@${version}" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$dir/." "$work/"
chmod -R u+w "$work"
# The module's go.mod replaces its api module with ./api, which the module
# zip leaves out: the api module of the same version takes its place.
api=$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "${module}/api@${version}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$api" ]; then
  echo "could not download ${module}/api@${version}" >&2
  exit 1
fi
mkdir -p "$work/api"
cp -r "$api/." "$work/api/"
chmod -R u+w "$work/api"
echo "building ${name} ${version} (a few minutes the first time)"
abs_out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
(cd "$work" && GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -o "$abs_out" .)
rm -rf "$out-crds"
mkdir -p "$out-crds"
cp "$work"/config/crd/bases/*.yaml "$out-crds/"
rm -rf "$cache.tmp" && mkdir -p "$cache.tmp"
cp "$abs_out" "$cache.tmp/${name}"
cp -r "$out-crds" "$cache.tmp/crds"
rm -rf "$cache" && mv "$cache.tmp" "$cache"
echo "$version" > "$stamp"
echo "built ${name} ${version} at ${out} (kept in ${cache})"
