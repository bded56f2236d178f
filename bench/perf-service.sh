#!/usr/bin/env bash
# Where the service's CPU goes at saturation, as the kernel sees it (issue 15).
#
# The V8 profile (`npm run bench -- --profile`) samples wall time on the main
# thread: time spent descheduled inside a system call counts as that call's.
# perf counts CPU: it starts the inquiry scenario (30 s), waits for the
# warm-up, then attaches to the service process for 8 s and prints how much
# of its CPU was the kernel, node's own C++ (V8 and libuv), JIT-compiled
# JavaScript and libc, and the top symbols. The service runs with
# --perf-basic-prof so JavaScript frames are named.
#
# Usage: bench/perf-service.sh [seconds to sample, default 8]. Needs `perf`
# (Debian: linux-perf) and the same PostgreSQL and Redis as `npm run bench`.
set -eu  # no pipefail: `| head` closing early is not a failure here
cd "$(dirname "$0")/.."
seconds="${1:-8}"
command -v perf >/dev/null || { echo "perf is not installed (Debian: apt-get install linux-perf)" >&2; exit 2; }
out="$(mktemp -d)"
BENCH_NODE_ARGS="--perf-basic-prof" npm run bench -- --only inquiry --duration 30 > "$out/bench.log" 2>&1 &
bench=$!
# The scenario starts its service, waits for /healthz, then 3 s of warm-up.
for _ in $(seq 1 60); do
  pid="$(pgrep -f 'bin/tas.js serve' | head -1 || true)"
  [ -n "$pid" ] && break
  sleep 0.5
done
[ -n "${pid:-}" ] || { echo "the bench's service did not start; see $out/bench.log" >&2; exit 1; }
sleep 10
perf stat -p "$pid" -e task-clock,context-switches,cpu-migrations -- sleep "$seconds" 2> "$out/stat.txt"
perf record -F 1999 -g -p "$pid" -o "$out/perf.data" -- sleep "$seconds" 2> /dev/null
wait "$bench" || true
grep '"scenario":"inquiry"' "$out/bench.log" | cut -c1-160
grep -E 'task-clock|context-switches' "$out/stat.txt"
echo "-- the service's CPU by where it ran:"
perf report -i "$out/perf.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -E '^ +[0-9]' | head -6
echo "-- top symbols (self):"
perf report -i "$out/perf.data" --no-children --sort sym --stdio -g none 2>/dev/null | grep -E '^ +[0-9]' | head -15
echo "-- inclusive, JavaScript and the garbage collector:"
perf report -i "$out/perf.data" --children --sort sym --stdio -g none 2>/dev/null | grep -E '^ +[0-9]' | grep -E 'JS:\*(runInline|executeQueryInternal|createFragment|Actor|transition) |JsonStringify$|Heap::CollectGarbage$|entry_SYSCALL_64_after_hwframe$' | head -12
# --perf-basic-prof also makes V8 write its code log (isolate-*-v8.log) into the service's working directory.
rm -rf "$out" isolate-*-v8.log
