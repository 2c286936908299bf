#!/usr/bin/env bash
# Prints, as a go test -run pattern, the command line's tests that make
# test runs a second time as strata-kube builds them (the tag kube): the
# tests of cmd/strata's files built only with that tag, and every test that
# passes strata a flag of strata-kube's (--kubeconfig, --context,
# --namespace, --leader-elect…). The rest of cmd/strata compiles to the
# same code with and without the tag (kube_lean.go and its kube
# counterparts are all that differ), so the first pass covers it.
set -euo pipefail
cd "$(dirname "$0")/../cmd/strata"
{
  for f in $(grep -l '^//go:build kube$' ./*_test.go); do
    sed -n 's/^func \(Test[A-Za-z0-9_]*\)(t \*testing\.T).*/\1/p' "$f"
  done
  awk '/^func Test[A-Za-z0-9_]*\(t \*testing\.T\)/ { name = $2; sub(/\(.*/, "", name) }
       /"--(kubeconfig|context|namespace|leader-elect)[-a-z]*"/ && name != "" { print name }' \
    $(grep -L '^//go:build' ./*_test.go)
} | sort -u | paste -sd'|' | sed 's/^/^(/; s/$/)$/'
