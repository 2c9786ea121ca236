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
  # Region isolation ("sending … risks causing data races") is checked on SIL, after type
  # checking: a file that says so is compiled that far.
  stage=-typecheck
  if grep -q "^// stage: sil" "$file"; then stage="-emit-sil -whole-module-optimization -o /dev/null"; fi
  # shellcheck disable=SC2086
  if output="$(swiftc $stage -swift-version 6 -I "$build/Modules" \
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
# A client in Swift 5 language mode: the README's sentence on what the Sendable check gives it.
for file in Tests/CompileFailures/Swift5/*.swift; do
  expected="$(sed -n 's|^// expected warning: ||p' "$file")"
  typecheck() {
    swiftc -typecheck -swift-version 5 "$@" -I "$build/Modules" \
      -Xcc -fmodule-map-file="$build/JoineryPlatform.build/module.modulemap" \
      -Xcc -I -Xcc Sources/JoineryPlatform/include "$file" 2>&1
  }
  strict="$(typecheck -enable-upcoming-feature StrictConcurrency \
    -enable-upcoming-feature InferSendableFromCaptures)" || strict="refused: $strict"
  plain="$(typecheck)" || plain="refused: $plain"
  if ! grep -qF "warning: $expected" <<<"$strict" || grep -q "refused:" <<<"$strict"; then
    echo "FAIL $file with StrictConcurrency: expected the warning \"$expected\":"
    echo "$strict"
    status=1
  elif grep -qF "converting non-Sendable function value" <<<"$strict"; then
    echo "FAIL $file with InferSendableFromCaptures: \`to: X.init\` is still a non-Sendable function:"
    echo "$strict"
    status=1
  elif grep -qF "$expected" <<<"$plain" || grep -q "refused:" <<<"$plain"; then
    echo "FAIL $file without StrictConcurrency: expected no Sendable check:"
    echo "$plain"
    status=1
  else
    echo "ok   $file: a warning with StrictConcurrency, nothing without"
  fi
done
exit $status
