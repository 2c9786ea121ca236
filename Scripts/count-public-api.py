#!/usr/bin/env python3
"""Counts the public declarations of the Joinery module from its symbol graph.

Run after `swift package dump-symbol-graph --minimum-access-level public`. Every declared
symbol counts (types, members, operators, extensions on other modules' types); symbols the
compiler synthesizes (protocol default implementations) do not, nor do the deprecation shims of
Sources/Joinery/Deprecations.swift (unconditionally deprecated: kept so that old spellings
compile with a warning naming their replacement, not part of the surface; they are counted
apart), nor do the overloads marked `@_documentation(visibility: internal)`: the generated
fixed-arity forms, which repeat the spelling, labels and defaults of a documented parameter-pack
form so that Swift specializes the call (Scripts/generate-fixed-arity.py), and the two- and
three-argument `bindAsync` and `resolveAsync` forms, which repeat the one-argument form's
spelling, labels and defaults (fixed arities where Swift 6.3 cannot expand a pack in an async
function). The symbol graph leaves them out; this script counts them from the sources and
prints them apart.

    python3 Scripts/count-public-api.py            # the count, and the names by kind
    python3 Scripts/count-public-api.py --ceiling  # fails if the count is above .ci/public-api-ceiling

The ceiling only goes down: lower it in the commit that removes declarations (issue 26 aims
at 250, reached).
"""
import collections
import glob
import json
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
files = glob.glob(os.path.join(root, ".build", "*", "symbolgraph", "Joinery.symbols.json"))
files += glob.glob(os.path.join(root, ".build", "*", "symbolgraph", "Joinery@*.symbols.json"))
if not files:
    sys.exit("no symbol graph: run `swift package dump-symbol-graph --minimum-access-level public`")

def deprecated(symbol):
    return any(
        entry.get("isUnconditionallyDeprecated") for entry in symbol.get("availability", []))

declarations = []
shims = []
for path in files:
    with open(path) as file:
        for symbol in json.load(file)["symbols"]:
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            entry = (symbol["kind"]["identifier"], ".".join(symbol["pathComponents"]))
            (shims if deprecated(symbol) else declarations).append(entry)

hidden = 0
for folder, _, sources in os.walk(os.path.join(root, "Sources", "Joinery")):
    for source in sources:
        if source.endswith(".swift"):
            with open(os.path.join(folder, source)) as file:
                hidden += sum(
                    line.strip() == "@_documentation(visibility: internal)" for line in file)

names = {name for _, name in declarations}
kinds = collections.Counter(kind for kind, _ in declarations)
print(f"Joinery: {len(declarations)} public declarations under {len(names)} names")
print(f"  and {len(shims)} deprecation shims: {', '.join(sorted(name for _, name in shims))}")
print(f"  and {hidden} specialization overloads hidden from the docs (same spelling as a documented form)")
for kind, count in kinds.most_common():
    print(f"  {count:4} {kind}")

if "--ceiling" in sys.argv:
    with open(os.path.join(root, ".ci", "public-api-ceiling")) as file:
        ceiling = int(file.read().split()[0])
    if len(declarations) > ceiling:
        sys.exit(
            f"{len(declarations)} public declarations, above the ceiling of {ceiling} "
            "(.ci/public-api-ceiling): remove one for each you add, or say why in the commit "
            "that raises it.")
    print(f"within the ceiling of {ceiling}")
