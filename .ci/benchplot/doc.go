// Command benchplot draws the load curve that .ci/bench.sh measured
// ($BENCH_OUT.curve: one line per size, "stacks wall-seconds cpu-seconds
// rss-MiB") as an SVG plot for docs/performance.md: wall time and CPU per
// stack against the number of stacks, on a logarithmic axis, and peak RSS.
// A flat line per stack is linear growth.
//
//	go run ./.ci/benchplot -in bin/bench.txt.curve -out docs/load-curve.svg
package main
