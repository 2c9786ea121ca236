#!/usr/bin/env python3
"""Fails when LLVM IR calls a weakly linked function without checking for it first.

The compiler links a runtime entry point weakly (`declare extern_weak`) when the deployment
target's OS may not have it; on such an OS the symbol is null and a call to it jumps to address
0. A call counts as guarded when the function making it also compares the symbol with null or
asks the OS version (what `#available` compiles to). Anything else is listed with the Swift
declarations that reach it: a caller that is a metadata accessor is usually reached from a
type's reflection (field) descriptor, which names the stored property at fault.

usage: audit-weak-calls.py MODULE.ll
"""
import re
import subprocess
import sys

SYMBOL = r'@("[^"]+"|[-\w$.]+)'


def demangled(symbols):
    names = sorted(symbols)
    if not names:
        return {}
    result = subprocess.run(['swift-demangle', '-compact'], capture_output=True, text=True,
                            input='\n'.join(n.strip('"') for n in names))
    return dict(zip(names, result.stdout.split('\n')))


def main(path):
    text = open(path).read()
    weak = set(re.findall(r'^declare extern_weak [^@\n]*' + SYMBOL, text, re.M))
    bodies = {}
    for match in re.finditer(r'^define [^@\n]*' + SYMBOL + r'\(.*?^\}$', text, re.M | re.S):
        bodies[match.group(1)] = match.group(0)
    callers = {}
    for name, body in bodies.items():
        for callee in set(re.findall(r'call [^\n]*?' + SYMBOL + r'\(', body)):
            callers.setdefault(callee, set()).add(name)
    referrers = {}   # symbol -> global data that points at it
    for match in re.finditer(r'^' + SYMBOL + r' = (?!.*\bdefine\b)(.*)$', text, re.M):
        for target in set(re.findall(r'ptr ' + SYMBOL, match.group(2))):
            referrers.setdefault(target, set()).add(match.group(1))

    findings = []
    for symbol in sorted(weak):
        quoted = re.escape(symbol)
        for name, body in bodies.items():
            if not re.search(r'call [^\n]*@' + quoted + r'\(', body):
                continue
            if re.search(r'icmp (eq|ne) ptr @' + quoted + r', null', body):
                continue
            if re.search(r'is(OS|Platform)VersionAtLeast', body):
                continue
            findings.append((symbol, name))
    if not findings:
        print(f'ok   {len(weak)} weakly linked runtime symbols, every call guarded')
        return 0

    def owners(function):
        found = set()
        for caller in callers.get(function, ()):
            found.add(caller)
            level = set(referrers.get(caller, ()))
            for ref in list(level):
                level |= referrers.get(ref, set())
            found |= {r for r in level if re.search(r'M[Ff]"?$', r)}   # field descriptors
        return found

    names = demangled({s for s, _ in findings} | {f for _, f in findings}
                      | set().union(*(owners(f) for _, f in findings)))
    print('FAIL calls to weakly linked runtime functions with no null or OS-version check:')
    for symbol, function in findings:
        print(f'  {names.get(symbol, symbol)}')
        print(f'    called from {names.get(function, function)[:200]}')
        for owner in sorted(owners(function)):
            print(f'      reached from {names.get(owner, owner)[:200]}')
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
