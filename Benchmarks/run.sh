#!/usr/bin/env bash
# Builds the benchmarks in release mode and prints the comparison table (Markdown).
# Usage: bash Benchmarks/run.sh [--quick]   (BENCH_REPETITIONS, BENCH_SAMPLE_MS tune it)
set -euo pipefail
cd "$(dirname "$0")"
# SwiftPM does not notice a file added to or removed from the library (a path dependency of
# this package) and would build the old file list: have it plan the build again.
rm -f .build/release/description.json
swift build -c release --product JoineryBenchmarks
SWIFT_VERSION_LINE="$(swift --version 2>/dev/null | head -n 1)" \
  .build/release/JoineryBenchmarks "$@"
