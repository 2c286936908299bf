#!/usr/bin/env bash
# Runs the benchmarks and reports each one as a ratio against the baseline
# measured in the same run (machines are shared and noisy; absolute figures
# are not comparable between runs, ratios are).
#
# A baseline is named in the benchmark's pair below: "Benchmark:Baseline".
set -euo pipefail
count="${BENCH_COUNT:-5}"
out="${BENCH_OUT:-bin/bench.txt}"
mkdir -p "$(dirname "$out")"
go test -run '^$' -bench . -benchmem -count "$count" ./... | tee "$out"
pairs=(
  "BenchmarkReconcileUnchanged:BenchmarkReconcileDriftCheck"
)
echo
echo "ratios (median ns/op of each benchmark / median of its baseline, same run):"
for pair in "${pairs[@]}"; do
  bench="${pair%%:*}" base="${pair##*:}"
  median() {
    grep -E "^$1(-[0-9]+)?[[:space:]]" "$out" | awk '{print $3}' | sort -n |
      awk '{a[NR]=$1} END {if (NR==0) exit 1; print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
  }
  b=$(median "$bench") || { echo "  $bench: no result"; continue; }
  s=$(median "$base") || { echo "  $base: no result"; continue; }
  awk -v b="$b" -v s="$s" -v n="$bench" -v m="$base" 'BEGIN {printf "  %s / %s = %.4f (%.1fx faster)\n", n, m, b/s, s/b}'
done
