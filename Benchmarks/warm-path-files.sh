#!/usr/bin/env bash
# The library source files one warm operation of a benchmark case runs code from, and how many
# instructions each contributes: the "files on the warm path" of issue 59, measured instead of
# read off the code.
#
# Usage: bash Benchmarks/warm-path-files.sh "ROW TITLE" "VARIANT" N [-v]
#   bash Benchmarks/warm-path-files.sh "persistent, already built" Joinery 2000
#   bash Benchmarks/warm-path-files.sh "ephemeral single object" Joinery 2000 -v
#
# A debug build, so that nothing is inlined and every function keeps its own file (a release
# build attributes the inlined library code to the benchmark). callgrind counts only inside the
# benchmark's loop (`--toggle-collect`), so setup does not count; the figures are debug-build
# instructions per operation, useful for where the path goes, not for its speed (use
# instructions.sh for that). `-v` lists each file's costliest functions. Main thread only.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '5,8p' "$0"; exit 2; }
cd "$(dirname "$0")"
row=$1 variant=$2 count=$3 verbose=${4:-}
command -v valgrind >/dev/null || { echo "valgrind is needed (callgrind)" >&2; exit 1; }

# valgrind cannot read the toolchain's default DWARF 5: this build asks for version 4.
build=.build-dwarf4
rm -f "$build/debug/description.json"
swift build --product JoineryBenchmarks --build-path "$build" \
  -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4 >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --separate-threads=yes \
  --toggle-collect='$s17JoineryBenchmarks4loopyySicyycFySicfU_' --callgrind-out-file="$work/out" \
  "$OLDPWD/$build/debug/JoineryBenchmarks" --profile "$row" "$variant" "$count" >/dev/null 2>&1)
callgrind_annotate --threshold=100 "$work/out-01" >"$work/annotated.txt"

python3 - "$work/annotated.txt" "$count" "$verbose" <<'PYTHON'
import collections, re, sys

path, count, verbose = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "-v"
files = collections.Counter()
functions = collections.defaultdict(list)
helpers = collections.Counter()
for line in open(path):
    match = re.match(r"^\s*([0-9,]+)\s+\(\s*[0-9.]+%\)\s+(.*)$", line)
    if not match:
        continue
    cost = int(match.group(1).replace(",", "")) / count
    source = re.search(r"(Sources/(Joinery|JoineryEngine)/[^ :]+\.swift)", match.group(2))
    if cost < 0.5 or not source:
        continue
    name = match.group(2).split(":", 1)[-1]
    # Only the library's own functions make a file part of the path: a compiler-made helper
    # (a metadata cache, an outlined copy) or a standard library specialization is attributed to
    # whichever file the compiler first emitted it in.
    if not re.match(r"\$s(7Joinery|13JoineryEngine)", name):
        helpers[source.group(1)] += cost
        continue
    files[source.group(1)] += cost
    functions[source.group(1)].append((cost, name[:100]))
for file, cost in files.most_common():
    print(f"{cost:9.0f}  {file}")
    if verbose:
        for each, name in sorted(functions[file], reverse=True)[:5]:
            print(f"{each:20.0f}  {name}")
folders = {f.split("/")[2] if f.split("/")[1] == "Joinery" else f.split("/")[1] for f in files}
print(f"{len(files)} library files in {len(folders)} folders (the engine target counted as one)")
others = {f: c for f, c in helpers.items() if f not in files}
if others:
    print("not counted (compiler-made helpers only): " + ", ".join(
        f"{f} ({c:.0f})" for f, c in sorted(others.items(), key=lambda item: -item[1])))
PYTHON
