#!/usr/bin/env bash
# Installs what the test suite runs for real and does not build itself,
# from Debian's packages:
# - docker-registry, the OCI registry. Tests start their own registry process
#   on a free loopback port; the package's service is not needed, so when
#   this script installs the package it also stops and disables that
#   service.
# - chromium, the headless browser the web view's tests drive.
# - gnupg, whose gpg the SOPS tests generate an OpenPGP key with and sops
#   decrypts it through.
# Safe to run again: it installs only what is missing.
set -euo pipefail

registry=/usr/bin/docker-registry
missing=()
[ -x "$registry" ] || missing+=(docker-registry)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v gpg >/dev/null 2>&1 || missing+=(gnupg)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "install-test-deps: ${missing[*]} missing and installing needs root;" >&2
  echo "run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-test-deps: ${missing[*]} missing and apt-get is not available;" >&2
  echo "install the distribution registry (so that $registry exists), chromium and gnupg" >&2
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "installing ${missing[*]} (what the tests run for real)"
if ! { ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "install-test-deps: installing ${missing[*]} failed" >&2
  exit 1
fi

# The tests never use the packaged registry service (port 5000, with a login).
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  ${as_root[@]+"${as_root[@]}"} systemctl disable --now docker-registry >/dev/null 2>&1 || true
fi

if [ ! -x "$registry" ]; then
  echo "install-test-deps: docker-registry installed but $registry is missing" >&2
  exit 1
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo "install-test-deps: chromium installed but not on PATH" >&2
  exit 1
fi
