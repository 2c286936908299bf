#!/usr/bin/env bash
# Installs what the test suite runs for real and does not build itself:
# the OCI registry from Debian's docker-registry package. Tests start their
# own registry process on a free loopback port; the package's service is not
# needed, so when this script installs the package it also stops and
# disables that service. Safe to run again: it does nothing when the
# registry is already installed.
set -euo pipefail

registry=/usr/bin/docker-registry
if [ -x "$registry" ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "install-test-deps: $registry is missing and installing it needs root;" >&2
  echo "run: sudo apt-get update && sudo apt-get install -y docker-registry" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-test-deps: $registry is missing and apt-get is not available;" >&2
  echo "install the distribution registry so that $registry exists" >&2
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "installing docker-registry (the OCI registry the tests start)"
if ! { ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-registry; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "install-test-deps: installing docker-registry failed" >&2
  exit 1
fi

# The tests never use the packaged service (port 5000, with a login).
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  ${as_root[@]+"${as_root[@]}"} systemctl disable --now docker-registry >/dev/null 2>&1 || true
fi

if [ ! -x "$registry" ]; then
  echo "install-test-deps: docker-registry installed but $registry is missing" >&2
  exit 1
fi
