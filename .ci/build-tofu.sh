#!/usr/bin/env bash
# Builds OpenTofu from its Go module into bin/tofu.
# `go install module@version` refuses opentofu because of its replace
# directives, so the module is downloaded, copied to a writable tree and
# built there with the release version string.
# With --check it builds nothing, and exits 0 when that version is built.
set -euo pipefail
version="${TOFU_VERSION:-v1.10.6}"
check=
if [ "${1:-}" = --check ]; then
  check=1
  shift
fi
out="${1:-bin/tofu}"
if [ -x "$out" ] && TF_CLI_CONFIG_FILE=/dev/null "$out" version -json 2>/dev/null | grep -q "\"terraform_version\": \"${version#v}\""; then
  [ -n "$check" ] || echo "tofu ${version} already built at ${out}"
  exit 0
fi
if [ -n "$check" ]; then
  exit 1
fi
mkdir -p "$(dirname "$out")"
echo "downloading github.com/opentofu/opentofu@${version}"
dir=$(GOFLAGS=-mod=mod go mod download -json "github.com/opentofu/opentofu@${version}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$dir" ]; then
  echo "could not download github.com/opentofu/opentofu@${version}" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$dir/." "$work/"
chmod -R u+w "$work"
echo "building tofu ${version} (this takes a few minutes the first time)"
abs_out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
# No -trimpath, and no cgo as in make build: Go's standard library, about a
# minute of CPU to compile, is then compiled once for tofu and strata.
(cd "$work" && CGO_ENABLED=0 go build \
  -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
  -o "$abs_out" ./cmd/tofu)
TF_CLI_CONFIG_FILE=/dev/null "$out" version
