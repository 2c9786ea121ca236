#!/usr/bin/env bash
# Type-checks one register declaring N autowired bindings (default 1,000: a chain of classes whose
# initializers take the two before) and, with --mixed, every other one assisted (`arguments:`,
# `to:`) and every other a closure taking a runtime argument and resolving inline; prints the
# seconds. Issue 57 asks for under 2 s at 1,000. Not a CI step: a timing on a shared machine.
# Usage: bash Scripts/check-typecheck-time.sh [N] [--mixed]   (after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
mixed=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$count" "$mixed" > "$work/Register.swift" <<'PY'
import sys
n, mixed = int(sys.argv[1]), sys.argv[2] == "--mixed"
print("import Joinery\n")
for i in range(n):
    if i < 2:
        print(f"final class C{i}: Sendable {{ init() {{}} }}")
    elif mixed:
        print(f"final class C{i}: Sendable {{ init(n: Int, a: C{i-1}, b: C{i-2}) {{}} }}")
    else:
        print(f"final class C{i}: Sendable {{ init(a: C{i-1}, b: C{i-2}) {{}} }}")
print("struct Register: DependencyRegister {\n  func register(in registrar: inout Registrar) {")
for i in range(n):
    if i < 2:
        print(f"    registrar.bind(C{i}.self, lifetime: .persistent, to: C{i}.init)")
    elif not mixed:
        print(f"    registrar.bind(C{i}.self, to: C{i}.init(a:b:))")
    elif i % 2:
        print(f"    registrar.bind(C{i}.self, arguments: Int.self, to: C{i}.init(n:a:b:))")
    else:
        print(f"    registrar.bind(C{i}.self) {{ (resolver, n: Int) in")
        print(f"      C{i}(n: n, a: try resolver.resolve(C{i-1}.self, arguments: n),")
        print(f"        b: try resolver.resolve(C{i-2}.self, arguments: n))")
        print("    }")
print("  }\n}")
PY
build="$(swift build --show-bin-path)"
start=$(date +%s.%N)
swiftc -typecheck -swift-version 6 -I "$build/Modules" \
  -Xcc -fmodule-map-file="$build/JoineryPlatform.build/module.modulemap" \
  -Xcc -I -Xcc Sources/JoineryPlatform/include "$work/Register.swift"
end=$(date +%s.%N)
python3 -c "print(f'{$count} bindings${mixed:+ (mixed)}: type-checked in {$end - $start:.2f} s')"
