#!/usr/bin/env python3
"""Counts every declaration a client of the `Joinery` product can call, from the sources.

Every Swift module the product brings is counted (`Sources/Joinery` and `Sources/JoineryEngine`,
which `Joinery` imports): each `public` or `open` declaration, whatever its attributes
(deprecated, underscored, hidden from the docs or not: a client can call all of them), plus
each requirement of a public protocol, which a client can call without a `public` of its own.
A symbol graph is not used: it leaves out underscored and doc-hidden declarations.

    python3 Scripts/count-public-api.py            # the count, by module and file
    python3 Scripts/count-public-api.py --ceiling  # fails above .ci/public-api-ceiling

The ceiling only goes down: lower it in the commit that removes declarations (issue 57).
"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
modules = ["Joinery", "JoineryEngine"]

DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:static|final|class|override|"
    r"mutating|nonmutating|convenience|required|indirect|nonisolated|dynamic|lazy|"
    r"private\(set\)|internal\(set\)|fileprivate\(set\)|package\(set\))\s+)*"
    r"(func|var|let|init|subscript|struct|class|enum|protocol|typealias|actor|case|"
    r"associatedtype|extension|macro)\b")
IMPORT = re.compile(r"^\s*public\s+import\b")
REQUIREMENT = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:static\s+|mutating\s+)*"
                         r"(func|var|init|subscript|associatedtype)\b")


def count(path):
    """The public declarations of one file, and its public protocols' requirements."""
    declarations = 0
    in_protocol = False
    depth = 0
    with open(path) as file:
        lines = file.readlines()
    for line in lines:
        code = line.split("//", 1)[0]
        if IMPORT.match(code):
            continue
        match = DECLARATION.match(code)
        # `public extension` adds nothing callable itself; its members are counted.
        if match and match.group(1) != "extension":
            declarations += 1
            if match.group(1) == "protocol":
                in_protocol = True
                depth = 0
        elif in_protocol and depth == 1 and REQUIREMENT.match(code):
            declarations += 1
        if in_protocol:
            depth += code.count("{") - code.count("}")
            if depth <= 0 and "}" in code:
                in_protocol = False
    return declarations


total = 0
for module in modules:
    folder = os.path.join(root, "Sources", module)
    by_file = []
    for directory, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                found = count(path)
                if found:
                    by_file.append((found, os.path.relpath(path, root)))
    subtotal = sum(found for found, _ in by_file)
    total += subtotal
    print(f"{module}: {subtotal}")
    for found, path in sorted(by_file, reverse=True):
        print(f"  {found:4} {path}")
print(f"total: {total} public declarations a client of the Joinery product can call")

if "--ceiling" in sys.argv:
    with open(os.path.join(root, ".ci", "public-api-ceiling")) as file:
        ceiling = int(file.read().split()[0])
    if total > ceiling:
        sys.exit(
            f"{total} public declarations, above the ceiling of {ceiling} "
            "(.ci/public-api-ceiling): remove one for each you add, or say why in the commit "
            "that raises it.")
    print(f"within the ceiling of {ceiling}")
