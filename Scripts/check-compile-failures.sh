#!/usr/bin/env bash
# Type-checks each file in Tests/CompileFailures against the debug build of Joinery and fails
# unless the compiler refuses it with the message on its `// expected:` line, and without
# "failed to produce diagnostic" (what two public overloads of one name gave a misspelt type).
# Usage: bash Scripts/check-compile-failures.sh   (after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/.."
build="$(swift build --show-bin-path)"
status=0
for file in Tests/CompileFailures/*.swift; do
  expected="$(sed -n 's|^// expected: ||p' "$file")"
  if output="$(swiftc -typecheck -swift-version 6 -I "$build/Modules" \
    -Xcc -fmodule-map-file="$build/JoineryPlatform.build/module.modulemap" \
    -Xcc -I -Xcc Sources/JoineryPlatform/include "$file" Tests/CompileFailures/Prelude/*.swift \
    2>&1)"; then
    echo "FAIL $file compiled, but must not: $expected"
    status=1
  elif grep -qF "failed to produce diagnostic" <<<"$output"; then
    echo "FAIL $file: the compiler gave up on a diagnostic (overloads sharing a name?):"
    echo "$output"
    status=1
  elif grep -qF "$expected" <<<"$output"; then
    echo "ok   $file: $expected"
  else
    echo "FAIL $file was refused for another reason:"
    echo "$output"
    status=1
  fi
done
exit $status
