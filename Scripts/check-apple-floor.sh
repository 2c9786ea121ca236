#!/usr/bin/env bash
# Checks on Linux that Joinery builds for every Apple platform Package.swift declares, at the
# declared floor, and that nothing it compiles calls a runtime entry point older OSes lack.
#
#   bash Scripts/check-apple-floor.sh [WORK_DIR]
#
# WORK_DIR (default $JOINERY_APPLE_FLOOR_WORK, else ~/.cache/joinery-apple-floor) keeps the
# stand-in SDKs and their compiled standard library between runs, per toolchain; a run takes
# about 4 minutes on a 2-core machine. README.md, "Platforms", says what this proves and
# what it does not.
#
# How, without an Apple SDK: the Linux toolchain ships the standard library, _Concurrency,
# _StringProcessing and Testing as textual interfaces that keep every Apple `@available`.
# Retargeted to an Apple triple they form a stand-in SDK, so swiftc's own availability checker
# and IR generation (which links newer runtime entry points weakly) answer as for an Apple build.
# Darwin is replaced by Scripts/apple-floor/Darwin.h, which declares what Joinery uses of it.
#
# Steps; each failure is listed, and the exit status is 1 if any step failed:
#   1. JoineryEngine, then Joinery, whole module, at each declared floor
#   2. JoineryTesting at each declared floor
#   3. the tests and the samples that share the floor, at the macOS floor (Foundation stood in
#      for by Scripts/apple-floor/Foundation.swift); Samples/ServerApp and Benchmarks declare
#      higher platforms of their own (Hummingbird needs macOS 14) and are not checked
#   4. weakly linked runtime calls in JoineryEngine's and Joinery's LLVM IR (-Onone and -O) that nothing guards
#   5. integer literals that overflow a 32-bit Int (watchOS arm64_32 devices)
#   6. the C target (JoineryPlatform) for Apple triples, Darwin branch
#   7. language features that need a newer runtime than the floor, by name
# STEPS="3 4" runs some steps only (a later step uses the modules an earlier run left in WORK_DIR).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$ROOT/Scripts/apple-floor
SWIFTC=$(command -v swiftc)
STDLIB=$(dirname "$(dirname "$SWIFTC")")/lib/swift
TOOLCHAIN_ID=$("$SWIFTC" --version 2>/dev/null | head -1 | cksum | cut -d' ' -f1)
WORK=${1:-${JOINERY_APPLE_FLOOR_WORK:-$HOME/.cache/joinery-apple-floor}}/$TOOLCHAIN_ID
mkdir -p "$WORK"
status=0
fail() { echo "FAIL $*"; status=1; }
wants() { [[ " ${STEPS:-1 2 3 4 5 6 7} " == *" $1 "* ]]; }
started=$SECONDS

# The floors, read from Package.swift: `.iOS(.v13)` -> ios13.0.
FLOORS=${FLOORS:-$(python3 - "$ROOT/Package.swift" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
names = {'macOS': 'macosx', 'iOS': 'ios', 'tvOS': 'tvos', 'watchOS': 'watchos', 'visionOS': 'xros'}
floors = []
for platform, version in re.findall(r'\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+(?:_\d+)?)\)', text):
    major, _, minor = version.partition('_')
    floors.append(f'{names[platform]}{major}.{minor or 0}')
print(' '.join(floors))
PY
)}
[ -n "$FLOORS" ] || { echo "FAIL no platforms found in Package.swift"; exit 1; }
echo "Declared floors: $FLOORS"

platform() { echo "${1%%[0-9]*}"; }   # ios13.0 -> ios
triple() {                            # the Linux interfaces are x86_64 ones
  case $1 in macosx*) echo "x86_64-apple-$1" ;; *) echo "x86_64-apple-$1-simulator" ;; esac
}
module_triple() {
  case $1 in macosx*) echo x86_64-apple-macos ;; *) echo "x86_64-apple-$(platform "$1")-simulator" ;; esac
}

# make_sdk FLOOR: a stand-in SDK for FLOOR's platform, made once per toolchain.
make_sdk() {
  local plat sdk module interface
  plat=$(platform "$1")
  sdk=$WORK/sdk/$plat
  [ -f "$sdk/.complete" ] && return 0
  rm -rf "$sdk" && mkdir -p "$sdk/usr/lib/swift" "$sdk/usr/include"
  # clang finds the runtime's shims through the SDK's top-level module map.
  printf 'extern module SwiftShims "%s/shims/module.modulemap"\nextern module _SwiftConcurrencyShims "%s/shims/module.modulemap"\n' \
    "$STDLIB" "$STDLIB" > "$sdk/usr/include/module.modulemap"
  # Synchronization stays out (its Linux interface imports Glibc): importing it fails the check,
  # which is the right answer, since it needs macOS 15 / iOS 18.
  for module in Swift _Concurrency _StringProcessing _RegexParser SwiftOnoneSupport Testing; do
    interface=$STDLIB/linux/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface
    [ -f "$interface" ] || continue
    mkdir -p "$sdk/usr/lib/swift/$module.swiftmodule"
    # Linux interfaces print no @backDeployed bodies; the declaration keeps its @available.
    sed -e "s/-target x86_64-unknown-linux-gnu/-target $(triple "$1")/" \
      -e '/^[[:space:]]*@backDeployed(.*)[[:space:]]*$/d' \
      "$interface" > "$sdk/usr/lib/swift/$module.swiftmodule/$(module_triple "$1").swiftinterface"
  done
  # The Failure witnesses synthesized for AsyncSequence and AsyncIteratorProtocol are Swift 6.0
  # API, printed on Linux with the conformance's 5.1 availability: restore Apple's.
  python3 - "$sdk/usr/lib/swift/_Concurrency.swiftmodule/$(module_triple "$1").swiftinterface" <<'PY'
import re, sys
path = sys.argv[1]
lines = open(path).read().split('\n')
for i in range(1, len(lines)):
  if re.match(r'\s*@_implements\(_Concurrency\.Async(IteratorProtocol|Sequence), Failure\)', lines[i]):
      lines[i - 1] = re.sub(r'@available\(iOS 13\.0, tvOS 13\.0, watchOS 6\.0, macOS 10\.15, \*\)',
                            '@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)',
                            lines[i - 1])
open(path, 'w').write('\n'.join(lines))
PY
  if [ "$plat" = xros ]; then
    # visionOS reads iOS availability through the SDK's version map.
    cat > "$sdk/SDKSettings.json" <<'JSON'
{"CanonicalName": "xrsimulator2.0", "Version": "2.0", "MaximumDeploymentTarget": "2.0.99",
 "VersionMap": {"iOS_xrOS": {"17.0": "1.0", "17.4": "1.1", "17.5": "1.2", "18.0": "2.0"},
                "xrOS_iOS": {"1.0": "17.0", "1.1": "17.4", "1.2": "17.5", "2.0": "18.0"}}}
JSON
  fi
  touch "$sdk/.complete"
}

# Stand-in Darwin, and the C target's module as SwiftPM maps it.
mkdir -p "$WORK/include/Darwin" "$WORK/include/JoineryPlatform"
cp "$HERE/Darwin.h" "$WORK/include/Darwin/Darwin.h"
printf 'module Darwin [system] {\n  header "Darwin.h"\n  export *\n}\n' > "$WORK/include/Darwin/module.modulemap"
printf 'module JoineryPlatform {\n  umbrella header "%s/Sources/JoineryPlatform/include/JoineryPlatform.h"\n  export *\n}\n' \
  "$ROOT" > "$WORK/include/JoineryPlatform/module.modulemap"

# apple_swiftc FLOOR ARGS...: swiftc for FLOOR against its stand-in SDK, in Swift 6 mode.
# Modules emitted for FLOOR are found in $WORK/modules/FLOOR.
apple_swiftc() {
  local floor=$1
  shift
  make_sdk "$floor"
  mkdir -p "$WORK/modules/$floor"
  "$SWIFTC" -target "$(triple "$floor")" -sdk "$WORK/sdk/$(platform "$floor")" \
    -module-cache-path "$WORK/module-cache/$(platform "$floor")" \
    -I "$WORK/include/Darwin" -I "$WORK/include/JoineryPlatform" -I "$WORK/modules/$floor" \
    -package-name joinery -Xfrontend -disable-objc-interop -swift-version 6 -wmo "$@" 2>&1 | grep -v 'Could not read SDKSettings.json'
  return "${PIPESTATUS[0]}"
}

# Package.swift's `strictSettings`, which the library and its tests use (the samples do not).
STRICT=(-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)
# Package.swift's `.strictMemorySafety()` of JoineryEngine and Joinery, as errors: the Darwin
# branches (os_unfair_lock, pthread_t) must mark their unsafe calls as the Linux ones do.
MEMSAFE=(-strict-memory-safety -Werror StrictMemorySafety)

# report LOG: the log's errors, paths relative to the checkout.
report() { grep -E '^[^ ].*: error:' "$1" | sed "s|$ROOT/||" | sort -u | head -40 | sed 's/^/    /'; }

sources() { find "$ROOT/$1" -name '*.swift' | sort; }
mapfile -t ENGINE < <(sources Sources/JoineryEngine)
mapfile -t JOINERY < <(sources Sources/Joinery)
mapfile -t TESTING < <(sources Sources/JoineryTesting)

if wants 1; then
  echo "== 1. JoineryEngine and Joinery at each declared floor"
  for floor in $FLOORS; do
    # -enable-testing: the tests import both with @testable (step 3).
    if ! apple_swiftc "$floor" "${STRICT[@]}" "${MEMSAFE[@]}" -enable-testing -module-name JoineryEngine \
      -parse-as-library "${ENGINE[@]}" -emit-module \
      -emit-module-path "$WORK/modules/$floor/JoineryEngine.swiftmodule" > "$WORK/engine-$floor.log"
    then
      rm -f "$WORK/modules/$floor/JoineryEngine.swiftmodule" "$WORK/modules/$floor/Joinery.swiftmodule"
      fail "$floor: JoineryEngine: $(grep -cE '^[^ ].*: error:' "$WORK/engine-$floor.log") errors"
      report "$WORK/engine-$floor.log"
    elif apple_swiftc "$floor" "${STRICT[@]}" "${MEMSAFE[@]}" -enable-testing -module-name Joinery \
      -parse-as-library \
      "${JOINERY[@]}" -emit-module \
      -emit-module-path "$WORK/modules/$floor/Joinery.swiftmodule" > "$WORK/joinery-$floor.log"; then
      echo "ok   $floor"
    else
      rm -f "$WORK/modules/$floor/Joinery.swiftmodule"
      fail "$floor: $(grep -cE '^[^ ].*: error:' "$WORK/joinery-$floor.log") errors"
      report "$WORK/joinery-$floor.log"
    fi
  done
fi

if wants 2; then
  echo "== 2. JoineryTesting at each declared floor"
  for floor in $FLOORS; do
    if [ ! -f "$WORK/modules/$floor/Joinery.swiftmodule" ]; then
      fail "$floor: not checked, Joinery does not build there (step 1)"
    elif apple_swiftc "$floor" "${STRICT[@]}" -module-name JoineryTesting -parse-as-library "${TESTING[@]}" \
      -emit-module -emit-module-path "$WORK/modules/$floor/JoineryTesting.swiftmodule" \
      > "$WORK/testing-$floor.log"; then
      echo "ok   $floor"
    else
      fail "$floor"
      report "$WORK/testing-$floor.log"
    fi
  done
fi

if wants 3; then
  echo "== 3. Tests and samples at the macOS floor"
  macos=$(tr ' ' '\n' <<< "$FLOORS" | grep '^macosx' | head -1)
  if [ -z "$macos" ] || [ ! -f "$WORK/modules/$macos/JoineryTesting.swiftmodule" ]; then
    fail "not checked: no macOS floor, or JoineryTesting does not build there (steps 1-2)"
  else
    # A module named Foundation that declares what the tests and samples use of it, with Apple's
    # availability.
    apple_swiftc "$macos" -module-name Foundation -parse-as-library "$HERE/Foundation.swift" \
      -emit-module -emit-module-path "$WORK/modules/$macos/Foundation.swiftmodule" \
      > "$WORK/foundation.log" || { fail "the Foundation stand-in"; report "$WORK/foundation.log"; }
    check_module() {   # check_module NAME KIND(library|executable) FILES...
      local name=$1 kind=$2
      shift 2
      local mode=(-parse-as-library)
      [ "$kind" = executable ] && mode=()
      if apple_swiftc "$macos" -module-name "$name" "${mode[@]}" "$@" -emit-module \
        -emit-module-path "$WORK/modules/$macos/$name.swiftmodule" > "$WORK/module-$name.log"; then
        echo "ok   $name"
      else
        fail "$name"
        report "$WORK/module-$name.log"
      fi
    }
    feed=Samples/FeedApp/Sources
    for module in FeedNetworking FeedStorage FeedAnalytics FeedFeature ProfileFeature; do
      mapfile -t files < <(sources "$feed/$module")
      check_module "$module" library "${files[@]}"
    done
    mapfile -t files < <(sources "$feed/FeedApp")
    check_module FeedApp executable "${files[@]}"
    mapfile -t files < <(sources Samples/FeedApp/Tests/FeedAppTests)
    check_module FeedAppTests library "${files[@]}"
    mapfile -t files < <(sources Samples/Migration)
    check_module MigrationGuide executable "${files[@]}"
    # Its own package at the same floor, with main-actor default isolation.
    mapfile -t files < <(sources Samples/MainActorClient/Sources/MainActorClient)
    check_module MainActorClient executable -default-isolation MainActor "${files[@]}"
    mapfile -t files < <(sources Tests/JoineryProbes)
    check_module JoineryProbes executable "${STRICT[@]}" "${files[@]}"
    mapfile -t files < <(sources Tests/JoineryTests)
    check_module JoineryTests library "${STRICT[@]}" "${files[@]}"
    mapfile -t files < <(sources Tests/JoineryEngineTests)
    check_module JoineryEngineTests library "${STRICT[@]}" "${files[@]}"
  fi
fi

if wants 4; then
  echo "== 4. Weakly linked runtime calls in JoineryEngine and Joinery (IR at the first OS with native concurrency)"
  # iOS 15 runs concurrency natively, so every weak symbol there is a later runtime entry point.
  # The engine's module for iOS 15, which Joinery's IR imports.
  apple_swiftc ios15.0 "${STRICT[@]}" -module-name JoineryEngine -parse-as-library "${ENGINE[@]}" \
    -emit-module -emit-module-path "$WORK/modules/ios15.0/JoineryEngine.swiftmodule" \
    > "$WORK/ir-engine-module.log" || { fail "JoineryEngine does not build for iOS 15"; report "$WORK/ir-engine-module.log"; }
  for optimization in Onone O; do
    for module in JoineryEngine Joinery; do
      if [ "$module" = Joinery ]; then files=("${JOINERY[@]}"); else files=("${ENGINE[@]}"); fi
      ir=$WORK/$module-ios15-$optimization.ll
      if apple_swiftc ios15.0 "${STRICT[@]}" "${MEMSAFE[@]}" -module-name "$module" \
        -parse-as-library "${files[@]}" \
        -emit-ir "-$optimization" -o "$ir" > "$WORK/ir-$module-$optimization.log"; then
        printf -- '%s -%s: ' "$module" "$optimization"
        python3 "$HERE/audit-weak-calls.py" "$ir" || status=1
      else
        fail "$module -$optimization: does not build for iOS 15"
        report "$WORK/ir-$module-$optimization.log"
      fi
    done
  done
fi

if wants 5; then
  echo "== 5. Integer literals wider than 32 bits (Int and UInt are 32-bit on arm64_32)"
  # A literal on a line that names a type wide enough for it ((U)Int64, or UInt/UInt32 up to
  # 0xFFFF_FFFF) is taken as intended.
  wide=$(python3 - "${ENGINE[@]}" "${JOINERY[@]}" "${TESTING[@]}" <<'PY'
import re, sys
literal = re.compile(r'(?<![\w.])(0x[0-9A-Fa-f_]+|0b[01_]+|0o[0-7_]+|\d[\d_]*)(?![\w.])')
for path in sys.argv[1:]:
    for number, line in enumerate(open(path), 1):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split('//')[0])
        for text in literal.findall(code):
            digits = text.replace('_', '')
            value = int(digits, 0) if digits[:2] in ('0x', '0b', '0o') else int(digits)
            if value > 0xFFFF_FFFF and not re.search(r'\bU?Int64\b', code):
                print(f'{path}:{number}: {text} needs 64 bits')
            elif value > 0x7FFF_FFFF and not re.search(r'\b(UInt|UInt32|U?Int64)\b', code):
                print(f'{path}:{number}: {text} overflows a 32-bit Int')
PY
  )
  if [ -n "$wide" ]; then
    fail "literals that do not fit a 32-bit Int or UInt:"
    sed "s|$ROOT/||; s/^/    /" <<< "$wide"
  else
    echo "ok"
  fi
fi

if wants 6; then
  echo "== 6. JoineryPlatform (C) for Apple triples"
  for target in x86_64-apple-macosx10.15 arm64-apple-macosx11.0 arm64-apple-ios13.0 \
    arm64-apple-tvos13.0 arm64_32-apple-watchos6.0 arm64-apple-watchos6.0 arm64-apple-xros1.0; do
    mkdir -p "$WORK/empty-sysroot"
    if clang -target "$target" -isysroot "$WORK/empty-sysroot" -std=c11 -fsyntax-only \
      -Wall -Wextra -Werror -I "$HERE/c-headers" -I "$ROOT/Sources/JoineryPlatform/include" \
      "$ROOT/Sources/JoineryPlatform/Threads.c" > "$WORK/c-$target.log" 2>&1; then
      echo "ok   $target"
    else
      fail "$target"
      sed 's/^/    /' "$WORK/c-$target.log" | head -10
    fi
  done
fi

if wants 7; then
  echo "== 7. Features above the floor, by name"
  # Each needs a newer runtime than the floor and is not always caught by availability checking.
  above=$(grep -rnE 'isolated deinit|@isolated\(any\)|import Synchronization' \
    "$ROOT/Sources/JoineryEngine" "$ROOT/Sources/Joinery" "$ROOT/Sources/JoineryTesting" | sed "s|$ROOT/||")
  if [ -n "$above" ]; then
    fail "isolated deinit (macOS 15.4), @isolated(any) storage or Synchronization (macOS 15):"
    sed 's/^/    /' <<< "$above"
  else
    echo "ok"
  fi
fi

echo "Apple-platform check: $([ $status = 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
exit $status
