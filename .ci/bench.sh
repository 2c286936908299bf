#!/usr/bin/env bash
# The benchmark: strata against the real alternatives, in one run, as
# ratios (machines are shared and noisy; absolute figures are not
# comparable between runs, ratios measured side by side are).
#
# 1. It generates (.ci/benchrepo) an environment of BENCH_STACKS stacks (default 100) in
#    four layers: 1% account, 5% network, 10% cluster, the rest services.
#    Each stack depends on one or two stacks of the layer below and holds 5
#    terraform_data resources.
# 2. It applies them once with strata, then times, in the same run:
#      - a sequential `tofu plan` loop over the stacks;
#      - in each of BENCH_DRIFT_RUNS rounds (5): a sequential `tofu init &&
#        tofu plan` loop, two `tofu plan` processes side by side, ordering
#        ignored (the floor on 2 cores), then `strata plan --drift-interval
#        0` (a drift check of every stack), each ratio being the median of
#        the rounds';
#      - `strata apply` with nothing due.
#    The tofu loops run in strata's own workspaces, on the same state.
# 3. It prints each strata figure as a ratio to the baselines, with
#    strata's own CPU per stack (its own, not tofu's) and its peak RSS,
#    with the part of it that is file pages at exit, and of those its
#    binary's (the rest is mostly the history database, which bbolt maps).
# 4. The load curve: a cold `strata graph` at 100, 1,000 and 10,000
#    stacks (BENCH_CURVE), per stack as a ratio to the smallest size's;
#    the shapes users write (BENCH_SHAPES: substitution, targetNamespace,
#    patches, components, prefixes, a code directory per stack), each a
#    cold `strata graph` of 10,000 stacks, the median of BENCH_SHAPES_RUNS
#    rounds (3) of every shape, as a ratio to the plain shape's of the
#    same round;
#    with BENCH_FLEET=1, a warm `strata apply` with nothing due at 10,000
#    stacks of BENCH_FLEET_SHAPE (substitutefrom), applied once and kept in
#    BENCH_FLEET_DIR.
# 5. Then the Go micro-benchmarks (BENCH_MICRO=0 skips them), each reported
#    against the baseline named in its pair below.
# BENCH_KEEP=1 keeps the generated repository and its state directory;
# BENCH_LINKED=1 runs bin/strata as the linker wrote it, not a copy (below);
# BENCH_BASELINES=0 skips the tofu loops (for strata's own CPU and memory
# at 1,000 stacks, say), and the ratios print as "-".
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
n="${BENCH_STACKS:-100}"
tofu="${STRATA_TOFU:-$root/bin/tofu}"
out="${BENCH_OUT:-bin/bench.txt}"
mkdir -p "$(dirname "$out")"
: >"$out"
say() { echo "$@" | tee -a "$out"; }

# As `make build` builds them (see the Makefile's GOTAGS): strata, and
# beside it strata-sops, the helper it decrypts SOPS values with.
CGO_ENABLED=0 go build -tags kustomize_disable_go_plugin_support -o bin/strata ./cmd/strata
CGO_ENABLED=0 go build -tags kustomize_disable_go_plugin_support -o bin/strata-sops ./cmd/strata-sops

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench.XXXXXX")
if [[ "${BENCH_KEEP:-0}" == 1 ]]; then
  echo "bench: keeping the generated repository and state in $work"
else
  trap 'rm -rf "$work"' EXIT
fi
# It runs a copy of bin/strata, written as an installed binary is (cp, an
# image layer): the Go linker writes its output through a shared mapping,
# and the page cache then holds it in 2 MiB folios that every process
# running it maps whole, which made the same binary's pages 88 MiB of its
# peak RSS instead of 62 (docs/performance.md). BENCH_LINKED=1 runs
# bin/strata as the linker left it.
strata="$root/bin/strata"
if [[ "${BENCH_LINKED:-0}" != 1 ]]; then
  cp "$strata" "$work/strata"
  cp "$root/bin/strata-sops" "$work/strata-sops"
  strata="$work/strata"
fi
repo="$work/repo" state="$work/state"

# --- 1. generate ----------------------------------------------------------
counts=()
left=$n
for pct in 1 5 10; do
  c=$((n * pct / 100))
  ((c < 1)) && c=1
  counts+=("$c")
  left=$((left - c))
done
counts+=("$left")
envdir="$repo/environments/bench/dev"
# The repository is written by .ci/benchrepo (its doc says the shape).
go build -o "$work/benchrepo" ./.ci/benchrepo
"$work/benchrepo" -stacks "$n" -out "$repo"

# --- 2. apply once, then time ----------------------------------------------
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN {printf "%.3f", b - a}'; }
run_strata() { # run_strata NAME ARGS...: times strata, keeps its rusage in $work/NAME.json
  local name=$1 t
  shift
  t=$(now)
  STRATA_RUSAGE_FILE="$work/$name.json" "$strata" "$@" --state-dir "$state" --tofu "$tofu" \
    >"$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
  elapsed "$t"
}
field() { sed -E "s/.*\"$2\":([0-9.e+-]+).*/\1/" "$work/$1.json"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == 0) print "-"; else printf "%.3f", a / b}'; }
median_of() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

say "bench: $n stacks (${counts[*]} per layer), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
run_strata install apply "$envdir" --drift-interval 1h >/dev/null
mapfile -t stacks < <(ls -d "$state"/work/bench/dev/*/)
((${#stacks[@]} == n)) || { echo "bench: expected $n workspaces, found ${#stacks[@]}"; exit 1; }
export TF_IN_AUTOMATION=1 TF_CLI_CONFIG_FILE="$state/tofu.rc" TF_PLUGIN_CACHE_DIR="$state/plugin-cache"
plan_one() { (cd "$1" && "$tofu" plan -input=false -lock-timeout=0s -var-file=strata.tfvars.json >/dev/null); }
export -f plan_one
export tofu

baselines="${BENCH_BASELINES:-1}"
t_init_plan=0 t_plan=0 t_floor=0
if [[ "$baselines" != 0 ]]; then
  t=$(now)
  for s in "${stacks[@]}"; do plan_one "$s"; done
  t_plan=$(elapsed "$t")
fi

# The drift check against the floor and the sequential `init && plan`
# loop, in BENCH_DRIFT_RUNS rounds (5; 1 without the baselines), each the
# loop, the floor and then the drift check: the figures are the medians
# of the rounds, each ratio the median of each round's own. All three are
# tofu's time on a machine whose speed moves by a tenth or more from one
# minute to the next, which one pair alone reports as if strata had.
rounds="${BENCH_DRIFT_RUNS:-5}"
[[ "$baselines" == 0 ]] && rounds="${BENCH_DRIFT_RUNS:-1}"
drift_walls=() drift_ratios=() drift_cpus=() drift_tofu_cpus=() drift_rss=() floors=()
init_plans=() init_plan_ratios=()
for ((r = 1; r <= rounds; r++)); do
  t_floor=0 t_init_plan=0
  if [[ "$baselines" != 0 ]]; then
    t=$(now)
    for s in "${stacks[@]}"; do (cd "$s" && "$tofu" init -input=false >/dev/null) && plan_one "$s"; done
    t_init_plan=$(elapsed "$t")
    t=$(now)
    printf '%s\0' "${stacks[@]}" | xargs -0 -P 2 -n 1 bash -c 'plan_one "$0"'
    t_floor=$(elapsed "$t")
  fi
  t_drift=$(run_strata drift plan "$envdir" --drift-interval 0)
  floors+=("$t_floor") drift_walls+=("$t_drift") drift_ratios+=("$(ratio "$t_drift" "$t_floor")")
  init_plans+=("$t_init_plan") init_plan_ratios+=("$(ratio "$t_drift" "$t_init_plan")")
  drift_cpus+=("$(field drift selfCPUSeconds)") drift_tofu_cpus+=("$(field drift childrenCPUSeconds)")
  drift_rss+=("$(field drift selfMaxRSSKiB)")
done
t_floor=$(median_of "${floors[@]}") t_drift=$(median_of "${drift_walls[@]}") t_init_plan=$(median_of "${init_plans[@]}")
t_idle=$(run_strata idle apply "$envdir" --drift-interval 1h)

# --- 3. report ---------------------------------------------------------------
per_stack_ms() { awk -v s="$1" -v n="$n" 'BEGIN {printf "%.2f", s * 1000 / n}'; }
say ""
say "baselines (wall seconds):"
say "  sequential tofu init && tofu plan   $t_init_plan (median of $rounds: ${init_plans[*]})"
say "  sequential tofu plan                $t_plan"
say "  2 tofu plan processes (the floor)   $t_floor (median of $rounds: ${floors[*]})"
say ""
say "strata plan --drift-interval 0 (drift check): $t_drift s (median of $rounds: ${drift_walls[*]})"
# round_ratio LABEL TARGET RATIOS...: the drift check's line against a
# baseline timed in every round, the median of the rounds' own ratios.
round_ratio() {
  local label=$1 target=$2
  shift 2
  if [[ "$baselines" != 0 ]]; then
    say "$(printf '  / %-20s = %s   (target <= %s; the median of each round'"'"'s: %s)' "$label" "$(median_of "$@")" "$target" "$*")"
  else
    say "$(printf '  / %-20s = -' "$label")"
  fi
}
round_ratio "sequential init+plan" 0.40 "${init_plan_ratios[@]}"
say "  / sequential plan      = $(ratio "$t_drift" "$t_plan")"
round_ratio "2-process floor" 1.10 "${drift_ratios[@]}"
say "  strata's own CPU       = $(per_stack_ms "$(median_of "${drift_cpus[@]}")") ms/stack   (target <= 5); tofu's: $(per_stack_ms "$(median_of "${drift_tofu_cpus[@]}")") ms/stack"
say "  strata's peak RSS      = $(($(printf '%s\n' "${drift_rss[@]}" | sort -n | tail -1) / 1024)) MiB (the highest of $rounds); file pages at exit $(($(field drift selfFileRSSKiB) / 1024)) MiB, $(($(field drift selfBinaryRSSKiB) / 1024)) MiB of them its binary's"
say "strata apply, nothing due: $t_idle s"
say "  / sequential init+plan = $(ratio "$t_idle" "$t_init_plan")   (target <= 0.02)"
say "  strata's own CPU       = $(per_stack_ms "$(field idle selfCPUSeconds)") ms/stack"
say "  strata's peak RSS      = $(($(field idle selfMaxRSSKiB) / 1024)) MiB; file pages at exit $(($(field idle selfFileRSSKiB) / 1024)) MiB, $(($(field idle selfBinaryRSSKiB) / 1024)) MiB of them its binary's   (target at 1,000 stacks <= 64)"

# --- 4. the load curve ---------------------------------------------------------
# A cold `strata graph` (no render cache: every Kustomization rendered)
# of the same shape at each size of BENCH_CURVE (unset: 100, 1,000 and
# 10,000 stacks; empty: skipped), each figure also as a ratio to the
# smallest size's, per stack: near 1 when the load grows linearly. The
# sizes and figures go to $out.curve too, for .ci/benchplot.
# cold_graph NAME REPO: times a cold `strata graph -o json` of REPO's
# environment, setting w (wall seconds), cpu (strata's CPU seconds) and
# rss (its peak RSS, MiB). The kernel writes the 30,000 files just made
# back to disk while the next command runs: sync first, so that the
# figure is the load's, not the writeback's.
cold_graph() {
  local name=$1 repo=$2 t
  sync
  t=$(now)
  STRATA_RUSAGE_FILE="$work/$name.json" "$strata" graph "$repo/environments/bench/dev" -o json \
    >/dev/null 2>"$work/$name.log" || { cat "$work/$name.log"; exit 1; }
  w=$(elapsed "$t")
  cpu=$(field "$name" selfCPUSeconds) rss=$(($(field "$name" selfMaxRSSKiB) / 1024))
}
curve="${BENCH_CURVE-100 1000 10000}"
if [[ -n "$curve" ]]; then
  say ""
  say "load curve: strata graph -o json, cold (per stack / the smallest size's per stack, same run):"
  : >"$out.curve"
  base=""
  for c in $curve; do
    crepo="$work/curve-$c"
    "$work/benchrepo" -stacks "$c" -out "$crepo"
    cold_graph "curve-$c" "$crepo"
    [[ -z "$base" ]] && base="$c $w $cpu"
    say "$(awk -v n="$c" -v w="$w" -v cpu="$cpu" -v rss="$rss" -v base="$base" 'BEGIN {
      split(base, b, " ")
      printf "  %6d stacks: %7.3f s wall (%.2f ms/stack, x%.2f), %7.3f s CPU (x%.2f), peak RSS %d MiB", n, w, w * 1000 / n, (w / n) / (b[2] / b[1]), cpu, (cpu / n) / (b[3] / b[1]), rss
    }')"
    echo "$c $w $cpu $rss" >>"$out.curve"
    rm -rf "$crepo"
  done
  say "  targets at 10,000 stacks: <= 2 s wall and <= 128 MiB, cost at most linear from 1,000 (x <= 1 per stack)"
fi

# --- 4c. the shapes users write ---------------------------------------------------
# A cold `strata graph` of BENCH_SHAPES_STACKS stacks (default 10,000) of
# each shape of .ci/benchrepo (BENCH_SHAPES: the shapes, in order, plain
# first; empty skips): substitution, targetNamespace, patches, components,
# name prefixes and labels, one code directory per stack, and the seed's
# layout. Every shape's repository is written first; the shapes are then
# loaded in BENCH_SHAPES_RUNS rounds (3), each round every shape once in
# order. A shared machine's speed drifts by a tenth or more over the
# minutes the shapes take, as much as a shape's margin: each shape is
# compared with the plain shape of the same round, which saw the same
# machine. Each is reported as its median run (by wall time; its CPU and
# peak RSS), the median of its rounds' ratios to the plain shape, and the
# highest peak RSS of its runs.
shapes="${BENCH_SHAPES-plain substitute substitutefrom targetnamespace patches components nameprefix moduledirs seed}"
if [[ -n "$shapes" ]]; then
  sn="${BENCH_SHAPES_STACKS:-10000}" sruns="${BENCH_SHAPES_RUNS:-3}"
  say ""
  say "shapes: strata graph -o json of $sn stacks, cold, the median of $sruns rounds, each shape against the plain shape of the same round:"
  : >"$out.shapes"
  for sh in $shapes; do
    "$work/benchrepo" -stacks "$sn" -shape "$sh" -out "$work/shape-$sh"
    : >"$work/shape-$sh.runs"
  done
  first="${shapes%% *}"
  for r in $(seq "$sruns"); do
    for sh in $shapes; do
      cold_graph "shape-$sh-$r" "$work/shape-$sh"
      [[ "$sh" == "$first" ]] && pw=$w pcpu=$cpu
      echo "$w $cpu $rss $(awk -v w="$w" -v cpu="$cpu" -v pw="$pw" -v pcpu="$pcpu" 'BEGIN {printf "%.4f %.4f", w / pw, cpu / pcpu}')" >>"$work/shape-$sh.runs"
    done
  done
  # median_run FIELD FILE: the run (line) whose FIELD is the median.
  median_run() { sort -n -k"$1" "$2" | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }
  for sh in $shapes; do
    runs="$work/shape-$sh.runs"
    read -r w cpu rss _ < <(median_run 1 "$runs")
    read -r _ _ _ wr _ < <(median_run 4 "$runs")
    read -r _ _ _ _ cr < <(median_run 5 "$runs")
    maxrss=$(awk 'm < $3 {m = $3} END {print m}' "$runs")
    say "$(awk -v sh="$sh" -v w="$w" -v cpu="$cpu" -v rss="$rss" -v maxrss="$maxrss" -v wr="$wr" -v cr="$cr" 'BEGIN {
      printf "  %-16s %7.3f s wall (x%.2f), %7.3f s CPU (x%.2f), peak RSS %d MiB (at most %d)", sh, w, wr, cpu, cr, rss, maxrss
    }')"
    echo "$sh $w $cpu $rss $maxrss $wr $cr" >>"$out.shapes"
    rm -rf "$work/shape-$sh"
  done
  say "  targets: each <= 2 s wall and <= 128 MiB, and <= x1.30 of the plain shape"
fi

# --- 4b. a fleet with nothing due ------------------------------------------------
# `strata apply` of BENCH_FLEET stacks (1: 10,000; unset or 0: skipped)
# when no drift check is due, warm (its render cached by the run before):
# what every tick of a fleet costs. The stacks are of BENCH_FLEET_SHAPE, a
# shape of .ci/benchrepo (substitutefrom: every Kustomization substitutes
# from the environment's ConfigMap, as the seed's layout does). They are
# applied once, with real tofu, into BENCH_FLEET_DIR (bin/bench-fleet),
# and kept for later runs: the first run takes a quarter of an hour more
# at 10,000 stacks. Reported per stack as a ratio to the nothing-due run
# of section 2.
fleet="${BENCH_FLEET:-0}"
if [[ "$fleet" != 0 ]]; then
  [[ "$fleet" == 1 ]] && fleet=10000
  fshape="${BENCH_FLEET_SHAPE:-substitutefrom}"
  fdir="${BENCH_FLEET_DIR:-$root/bin/bench-fleet}"
  frepo="$fdir/repo-$fleet-$fshape" fstate="$fdir/state-$fleet-$fshape"
  fenv="$frepo/environments/bench/dev"
  if [[ ! -f "$fdir/applied-$fleet-$fshape" ]]; then
    rm -rf "$frepo" "$fstate"
    mkdir -p "$fdir"
    "$work/benchrepo" -stacks "$fleet" -shape "$fshape" -out "$frepo"
    echo "bench: applying $fleet stacks once into $fdir (kept for later runs; see $fdir/apply.log)"
    "$strata" apply "$fenv" --drift-interval 1h --state-dir "$fstate" --tofu "$tofu" >"$fdir/apply.log" 2>&1 ||
      { tail -20 "$fdir/apply.log"; exit 1; }
    touch "$fdir/applied-$fleet-$fshape"
  fi
  # No drift check is due for a year; the first run fills the render cache.
  "$strata" apply "$fenv" --drift-interval 8760h --state-dir "$fstate" --tofu "$tofu" >"$work/fleet-warm.log" 2>&1 ||
    { tail -20 "$work/fleet-warm.log"; exit 1; }
  t=$(now)
  STRATA_RUSAGE_FILE="$work/fleet.json" "$strata" apply "$fenv" --drift-interval 8760h --state-dir "$fstate" --tofu "$tofu" \
    >"$work/fleet.log" 2>&1 || { tail -20 "$work/fleet.log"; exit 1; }
  w=$(elapsed "$t")
  say ""
  say "$(awk -v n="$fleet" -v sh="$fshape" -v w="$w" -v cpu="$(field fleet selfCPUSeconds)" -v rss="$(($(field fleet selfMaxRSSKiB) / 1024))" -v base="$t_idle" -v bn="$n" 'BEGIN {
    printf "strata apply, nothing due, %d stacks of shape %s (warm): %.3f s wall (x%.2f per stack against %d stacks), %.3f s CPU, peak RSS %d MiB   (targets <= 1 s, <= 128 MiB)", n, sh, w, (w / n) / (base / bn), bn, cpu, rss
  }')"
fi

# --- 5. micro-benchmarks ------------------------------------------------------
[[ "${BENCH_MICRO:-1}" == 0 ]] && exit 0
count="${BENCH_COUNT:-5}"
micro="$work/micro.txt"
go test -run '^$' -bench . -benchmem -count "$count" ./... | tee "$micro"
cat "$micro" >>"$out"
pairs=(
  "BenchmarkReconcileUnchanged:BenchmarkReconcileDriftCheck"
  "BenchmarkLoadCached:BenchmarkLoad"
  # A bootstrap cluster of 100 Flux Kustomizations shaped as the largest
  # public repositories of the kind (patches into every child, a Component
  # per namespace, HelmReleases, a stack in ten apps): what validate of
  # such a repository costs, against the 1,000-stack render.
  "BenchmarkLoadFluxTree:BenchmarkLoad"
  # The history's cost at 20 times the runs recorded: close to 1.
  "BenchmarkOpen/runs=20000:BenchmarkOpen/runs=1000"
  "BenchmarkLastGood/runs=20000:BenchmarkLastGood/runs=1000"
  # What a reconcile reads of 1,000 stacks' history: their heads against
  # their runs (each line also reports the file's resident-KiB/op).
  "BenchmarkReconcileReads/heads:BenchmarkReconcileReads/runs"
  # strata's directory hash against dirhash's own: a fraction of it.
  "BenchmarkHashDir/hashDir:BenchmarkHashDir/dirhash.HashDir"
)
say ""
say "micro-benchmark ratios (median ns/op of each benchmark / median of its baseline, same run):"
median() {
  grep -E "^$1(-[0-9]+)?[[:space:]]" "$micro" | awk '{print $3}' | sort -n |
    awk '{a[NR]=$1} END {if (NR==0) exit 1; print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}
for pair in "${pairs[@]}"; do
  bench="${pair%%:*}" base="${pair##*:}"
  b=$(median "$bench") || { say "  $bench: no result"; continue; }
  s=$(median "$base") || { say "  $base: no result"; continue; }
  say "$(awk -v b="$b" -v s="$s" -v n="$bench" -v m="$base" 'BEGIN {printf "  %s / %s = %.4f (%.1fx faster)", n, m, b/s, s/b}')"
done
