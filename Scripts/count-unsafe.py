#!/usr/bin/env python3
"""Counts where the library acknowledges unsafe code, and checks that it stays behind the engine.

JoineryEngine and Joinery build with strict memory safety (Package.swift, SE-0458): every use
of an unsafe construct (a raw pointer, `Unmanaged`, a bit-cast, unchecked exclusivity) must be
marked `unsafe`, or the build warns, which CI makes an error. This script counts those marks:

- `Sources/JoineryEngine`: the engine, whose `_` types keep the unsafe code;
- `Sources/Joinery`: none at all (its `Engine` folder, the resolution machinery, included).
  Declarations that opt out of a check with a reason beside them (`@safe` on
  `@exclusivity(unchecked)` or `nonisolated(unsafe)` storage) are listed.

It also refuses a forced cast (`as!`) anywhere in `Sources`: a value's type is checked where it
crosses from `Any` (and a mismatch thrown), never trapped on.

    python3 Scripts/count-unsafe.py            # the counts
    python3 Scripts/count-unsafe.py --check    # fails on any mark outside Sources/JoineryEngine,
                                               # or on a forced cast
"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
mark = re.compile(r'(?<![\w(])unsafe(?=[\s(])')
optout = re.compile(r'@safe\b.*(@exclusivity\(unchecked\)|nonisolated\(unsafe\))')


def code(line):
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split('//')[0]


def scan(folder):
    marks, optouts = [], []
    for directory, _, files in os.walk(os.path.join(root, folder)):
        for name in sorted(files):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(directory, name)
            for number, line in enumerate(open(path), 1):
                text = code(line)
                where = f'{os.path.relpath(path, root)}:{number}'
                marks += [where] * len(mark.findall(text))
                if optout.search(text):
                    optouts.append(where)
    return marks, optouts


engine, _ = scan('Sources/JoineryEngine')
rest, optouts = scan('Sources/Joinery')
print(f'unsafe marks: {len(engine)} in Sources/JoineryEngine, {len(rest)} in Sources/Joinery')
casts = []
for directory, _, files in os.walk(os.path.join(root, 'Sources')):
    for name in sorted(files):
        if name.endswith('.swift'):
            path = os.path.join(directory, name)
            casts += [f'{os.path.relpath(path, root)}:{number}'
                      for number, line in enumerate(open(path), 1) if re.search(r'\bas!', code(line))]
print(f'forced casts (as!) in Sources: {len(casts)}')
print(f'checks opted out of with @safe in Sources/Joinery: {len(optouts)}')
for where in optouts:
    print(f'  {where}')

if '--check' in sys.argv:
    failed = False
    if rest:
        print('unsafe code outside the engine: move it behind an engine type instead')
        for where in rest:
            print(f'  {where}')
        failed = True
    if casts:
        print('a forced cast traps on a type mismatch: check it and throw instead')
        for where in casts:
            print(f'  {where}')
        failed = True
    if failed:
        sys.exit(1)
    print('no unsafe code outside Sources/JoineryEngine, no forced cast')
