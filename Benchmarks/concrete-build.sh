#!/usr/bin/env bash
# Instructions per build of N concrete bindings, as an assembly writes them (default 1,000
# persistent classes, each `registrar.bind(Cn.self, lifetime: .persistent) { _ in Cn() }` in one
# register), counted by callgrind: builds 10 and 20 times and prints the difference over 10.
# The build rows of the benchmark package register through a generic helper (`Visit<P>`); this
# is the specialized path beside them (HISTORY, stop 64).
#
# Usage: bash Benchmarks/concrete-build.sh [LIBRARY_DIR] [N]
#   bash Benchmarks/concrete-build.sh              # this checkout
#   bash Benchmarks/concrete-build.sh /tmp/old     # another checkout (a git worktree)
set -euo pipefail
library=$(cd "${1:-$(dirname "$0")/..}" && pwd)
count=${2:-1000}
command -v valgrind >/dev/null || { echo "valgrind is needed (callgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/ConcreteBuild"
# A copy without build folders: SwiftPM builds a path dependency inside the client's .build.
mkdir -p "$work/library"
tar -C "$library" --exclude .build --exclude '.build-*' --exclude .git -cf - \
  Package.swift Sources Tests Samples | tar -C "$work/library" -xf -
cat > "$work/Package.swift" <<'SWIFT'
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ConcreteBuild",
  dependencies: [.package(name: "Joinery", path: "library")],
  targets: [
    .executableTarget(
      name: "ConcreteBuild", dependencies: [.product(name: "Joinery", package: "Joinery")])
  ]
)
SWIFT
python3 - "$count" > "$work/Sources/ConcreteBuild/main.swift" <<'PY'
import sys
n = int(sys.argv[1])
print("import Joinery\n")
for i in range(n):
    print(f"final class C{i}: Sendable {{ init() {{}} }}")
print("struct Assembly1: DependencyRegister {\n  func register(in registrar: inout Registrar) {")
for i in range(n):
    print(f"    registrar.bind(C{i}.self, lifetime: .persistent) {{ _ in C{i}() }}")
print("  }\n}\n")
print("@inline(never) func keep(_ container: Container) { withExtendedLifetime(container) {} }")
print("for _ in 0..<Int(CommandLine.arguments[1])! {")
print("  keep(try! ContainerBuilder(Assembly1()).build())")
print("}")
PY
swift build -c release --package-path "$work" >&2
cp "$work/.build/release/ConcreteBuild" "$work/bench"
strip -g "$work/bench"
total() {
  valgrind --tool=callgrind --callgrind-out-file="$work/out.$1" "$work/bench" "$1" >/dev/null 2>&1
  grep -m1 -E '^(totals|summary):' "$work/out.$1" | awk '{print $2}'
}
one=$(total 10)
two=$(total 20)
echo "build $count concrete bindings: $(((two - one) / 10)) instructions"
