#!/usr/bin/env bash
# Builds the benchmarks in release mode and prints the comparison table (Markdown).
# Usage: bash Benchmarks/run.sh [--quick]   (BENCH_REPETITIONS, BENCH_SAMPLE_MS tune it)
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product JoineryBenchmarks
SWIFT_VERSION_LINE="$(swift --version 2>/dev/null | head -n 1)" \
  .build/release/JoineryBenchmarks "$@"
