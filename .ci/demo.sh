#!/usr/bin/env bash
# make demo: builds what the demo runs, bin/tofu and bin/strata (not
# strata-sops: the demo decrypts nothing; not strata-kube: it runs no cluster
# command), printing one line a step with its time, then validates, applies
# and shows the example environment. The builds' own output (go: downloading
# …) goes to bin/demo-build.log, shown when a step fails.
#
# Environment (set by the Makefile): MAKE, GO, GOTAGS, TOFU, TOFU_VERSION,
# STRATA, DEMO_ENV.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p "$(dirname "$STRATA")"
log="$(dirname "$STRATA")/demo-build.log"
: >"$log"
begin=$(date +%s)

# rel PATH: PATH under the checkout, as the newcomer typed it
rel() { printf '%s' "${1#"$PWD"/}"; }

# took START: the time since START (seconds since the epoch), as 1m05s or 7s
took() {
  local s=$(( $(date +%s) - $1 ))
  if (( s >= 60 )); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# step LABEL COMMAND...: runs COMMAND with its output in the log, on one line
# "LABEL… TIME"; on failure, the end of the log and where the rest is
step() {
  local label=$1 start rc=0
  shift
  printf '%s… ' "$label"
  start=$(date +%s)
  "$@" >>"$log" 2>&1 || rc=$?
  if (( rc != 0 )); then
    printf 'failed after %s\n' "$(took "$start")"
    tail -n 40 "$log" >&2
    echo "make demo: the step's whole output is in $(rel "$log")" >&2
    exit "$rc"
  fi
  took "$start"
  printf '\n'
}

# While tofu compiles (CPU), fetch the modules strata's build needs (network):
# go list downloads the modules of the packages it lists, and nothing else.
prefetch() {
  "$GO" list -tags "$GOTAGS" -deps ./cmd/strata >/dev/null
}

if TOFU_VERSION=$TOFU_VERSION ./.ci/build-tofu.sh --check "$TOFU"; then
  echo "OpenTofu $TOFU_VERSION: already built in $(rel "$TOFU")"
else
  prefetch >>"$log" 2>&1 &
  fetching=$!
  step "building OpenTofu $TOFU_VERSION from source into $(rel "$TOFU") (once, about 4 min)" \
    env TOFU_VERSION="$TOFU_VERSION" ./.ci/build-tofu.sh "$TOFU"
  wait "$fetching" || true # a failed fetch is the build's to report
fi
step "building strata into $(rel "$STRATA") (about 2 min the first time, seconds after)" \
  "$MAKE" --no-print-directory strata
built=$(took "$begin")

for cmd in validate apply status; do
  echo
  echo "\$ strata $cmd $DEMO_ENV"
  "$STRATA" "$cmd" "$DEMO_ENV"
done
echo
echo "make demo: built in $built, done in $(took "$begin")"
