#!/usr/bin/env bash
# Instructions per operation of one benchmark case, counted by callgrind: the figure that holds
# on a shared machine (README, "Instructions per operation").
#
# Usage: bash Benchmarks/instructions.sh "ROW TITLE" "VARIANT" N [--all-threads] [--padded]
#   bash Benchmarks/instructions.sh "ephemeral single object" Joinery 20000
#   bash Benchmarks/instructions.sh "build 1000 bindings" Joinery 20 --padded
#   bash Benchmarks/instructions.sh "request scope: make, resolve a handler over 2 scoped objects, close" "Joinery scope" 2000 --all-threads
# The growth rows run on the concurrency pool and do a large fixed amount of work per
# operation: count them with N = 1 and --all-threads (the main thread alone reads about 0):
#   bash Benchmarks/instructions.sh "16,000 scoped resolves per operation, by scope size" "8000 bindings × 1 scopes" 1 --all-threads
#   bash Benchmarks/instructions.sh "8,000 async chain levels per operation" "depth 8000 × 1" 1 --all-threads
#
# Runs the stripped release benchmark with `--profile ROW VARIANT N` and with 2N, and prints
# the difference divided by N: what runs once cancels out. Counts the main thread only, from
# the start of the operations (setup is not counted), unless `--all-threads` (cases that run
# on the concurrency pool: every thread, setup included). `--padded` repeats the count with
# the environment padded by 0, 40, 80 and 120 bytes and prints each and their mean: the heap
# addresses of the benchmark's generic types, which the lookup tables hash, move with it, and
# with them a build row by up to 2 %. Run it on an idle machine: other load changes the
# interleaving of the runtime's threads, and with it the main thread's count.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '5,12p' "$0"; exit 2; }
cd "$(dirname "$0")"
row=$1 variant=$2 count=$3
shift 3
# The main thread's count starts when the operations do (`measured` in main.swift): the setup
# before them varies from run to run by more than an operation costs.
threads=(--separate-threads=yes '--toggle-collect=$s17JoineryBenchmarks8measured*')
file_suffix=-01 paddings=(0)
for option in "$@"; do
  case $option in
    --all-threads) threads=() file_suffix= ;;
    --padded) paddings=(0 40 80 120) ;;
    *) echo "unknown option $option" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "valgrind is needed (callgrind)" >&2; exit 1; }

# SwiftPM does not notice a file added to or removed from the library (a path dependency of
# this package) and would build the old file list: have it plan the build again.
rm -f .build/release/description.json
swift build -c release --product JoineryBenchmarks >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp .build/release/JoineryBenchmarks "$work/bench"
strip -g "$work/bench"  # valgrind cannot read the toolchain's DWARF 5

total() {  # total instructions of one run: $1 iterations, $2 padding
  local padding out
  padding=$(head -c "$2" /dev/zero | tr '\0' x)
  out="$work/out.$1.$2"
  (cd "$work" && env JB_PAD="$padding" SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind \
    "${threads[@]}" --callgrind-out-file="$out" ./bench --profile "$row" "$variant" "$1" \
    >/dev/null 2>&1)
  grep -m1 -E '^(totals|summary):' "$out$file_suffix" | awk '{print $2}'
}

figures=()
for padding in "${paddings[@]}"; do
  one=$(total "$count" "$padding")
  two=$(total $((2 * count)) "$padding")
  figures+=($(((two - one) / count)))
done
if [ ${#figures[@]} -eq 1 ]; then
  echo "$row | $variant: ${figures[0]}"
else
  sum=0
  for figure in "${figures[@]}"; do sum=$((sum + figure)); done
  echo "$row | $variant: ${figures[*]}, mean $((sum / ${#figures[@]}))"
fi
