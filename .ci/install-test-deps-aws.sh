#!/usr/bin/env bash
# Installs the servers the contract store and S3 state tests run against,
# each only when it is missing: moto_server (SSM Parameter Store) and
# versitygw (S3, posix backend).
set -euo pipefail

if ! command -v moto_server >/dev/null 2>&1 && ! python3 -c 'import moto.server' >/dev/null 2>&1; then
  echo "installing moto[server]"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'moto[server]'
fi

gobin="$(go env GOBIN)"
if [ -z "$gobin" ]; then
  gobin="$(go env GOPATH | cut -d: -f1)/bin"
fi
if ! command -v versitygw >/dev/null 2>&1 && [ ! -x "$gobin/versitygw" ]; then
  echo "installing versitygw"
  go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
fi
