#!/usr/bin/env python3
"""Which folders of Sources/Joinery use which, from the compiler's own index (issue 59: "the
folders depend in one direction").

Builds the Joinery target with an index store (in .build-index) and reads it through the
toolchain's libIndexStore: every non-implicit reference in a file to a symbol declared in
another file of the module is a use. Prints the folders' strongly connected groups (a group of
more than one folder is a dependency cycle), the files of the largest file-level cycle, and the
uses between folders.

    python3 Scripts/folder-deps.py               # cycles and folder edges
    python3 Scripts/folder-deps.py --why A B     # what folder A uses from folder B, where
    python3 Scripts/folder-deps.py --files       # also every file, starred if in the cycle
"""
import collections
import ctypes
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sources = os.path.join(root, 'Sources', 'Joinery') + os.sep
store_path = os.path.join(root, '.build-index', 'store')


def build():
    subprocess.run(
        ['swift', 'build', '--target', 'Joinery', '--build-path', os.path.join(root, '.build-index'),
         '-Xswiftc', '-index-store-path', '-Xswiftc', store_path],
        cwd=root, check=True, stdout=subprocess.DEVNULL)


def toolchain_lib():
    """The toolchain's libIndexStore: beside the `swift` driver (`xcrun` finds it on macOS)."""
    darwin = sys.platform == 'darwin'
    finder = ['xcrun', '--find', 'swift'] if darwin else ['which', 'swift']
    swift = subprocess.run(finder, capture_output=True, text=True).stdout.strip()
    usr = os.path.dirname(os.path.dirname(os.path.realpath(swift)))
    return os.path.join(usr, 'lib', 'libIndexStore.dylib' if darwin else 'libIndexStore.so')


class Ref(ctypes.Structure):
    _fields_ = [('data', ctypes.c_char_p), ('length', ctypes.c_size_t)]


def text(ref):
    return ctypes.string_at(ref.data, ref.length).decode() if ref.data else ''


P = ctypes.c_void_p
UNIT = ctypes.CFUNCTYPE(ctypes.c_bool, P, Ref)
EACH = ctypes.CFUNCTYPE(ctypes.c_bool, P, P)
DECLARATION, DEFINITION, REFERENCE, IMPLICIT = 1, 2, 4, 1 << 8
RECORD_DEPENDENCY = 2


def load(lib_path):
    lib = ctypes.CDLL(lib_path)
    signatures = {
        'indexstore_store_create': (P, [ctypes.c_char_p, ctypes.POINTER(P)]),
        'indexstore_store_units_apply_f': (ctypes.c_bool, [P, ctypes.c_uint, P, UNIT]),
        'indexstore_unit_reader_create': (P, [P, ctypes.c_char_p, ctypes.POINTER(P)]),
        'indexstore_unit_reader_get_main_file': (Ref, [P]),
        'indexstore_unit_reader_dependencies_apply_f': (ctypes.c_bool, [P, P, EACH]),
        'indexstore_unit_dependency_get_kind': (ctypes.c_int, [P]),
        'indexstore_unit_dependency_get_name': (Ref, [P]),
        'indexstore_unit_dependency_get_filepath': (Ref, [P]),
        'indexstore_record_reader_create': (P, [P, ctypes.c_char_p, ctypes.POINTER(P)]),
        'indexstore_record_reader_occurrences_apply_f': (ctypes.c_bool, [P, P, EACH]),
        'indexstore_occurrence_get_symbol': (P, [P]),
        'indexstore_occurrence_get_roles': (ctypes.c_uint64, [P]),
        'indexstore_occurrence_get_line_col':
            (None, [P, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
        'indexstore_symbol_get_usr': (Ref, [P]),
        'indexstore_symbol_get_name': (Ref, [P]),
    }
    for name, (result, arguments) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = result, arguments
    return lib


def read_index(lib):
    """Where each symbol is declared, and what each file uses: (file, usr, line) triples."""
    error = P()
    store = lib.indexstore_store_create(store_path.encode(), ctypes.byref(error))
    units = []
    lib.indexstore_store_units_apply_f(store, 0, None, UNIT(lambda _, name: units.append(text(name)) or True))
    declared, uses, done = {}, [], set()
    for unit in units:
        reader = lib.indexstore_unit_reader_create(store, unit.encode(), ctypes.byref(error))
        main = text(lib.indexstore_unit_reader_get_main_file(reader)) if reader else ''
        if not main.startswith(sources) or main in done or not os.path.exists(main):
            continue
        done.add(main)
        records = []

        def dependency(_, item):
            if lib.indexstore_unit_dependency_get_kind(item) == RECORD_DEPENDENCY and \
                    text(lib.indexstore_unit_dependency_get_filepath(item)) == main:
                records.append(text(lib.indexstore_unit_dependency_get_name(item)))
            return True
        lib.indexstore_unit_reader_dependencies_apply_f(reader, None, EACH(dependency))
        for record in records:
            records_reader = lib.indexstore_record_reader_create(store, record.encode(), ctypes.byref(error))

            def occurrence(_, item):
                roles = lib.indexstore_occurrence_get_roles(item)
                symbol = lib.indexstore_occurrence_get_symbol(item)
                usr = text(lib.indexstore_symbol_get_usr(symbol))
                if roles & (DECLARATION | DEFINITION):
                    if usr not in declared or roles & DEFINITION:
                        declared[usr] = (main, text(lib.indexstore_symbol_get_name(symbol)))
                elif roles & REFERENCE and not roles & IMPLICIT:
                    line, column = ctypes.c_uint(), ctypes.c_uint()
                    lib.indexstore_occurrence_get_line_col(item, ctypes.byref(line), ctypes.byref(column))
                    uses.append((main, usr, line.value))
                return True
            lib.indexstore_record_reader_occurrences_apply_f(records_reader, None, EACH(occurrence))
    return declared, uses


def folder(path):
    parts = os.path.relpath(path, sources).split(os.sep)
    return parts[0] if len(parts) > 1 else '(top)'


def strongly_connected(nodes, edges):
    graph = {node: sorted(b for a, b in edges if a == node) for node in nodes}
    index, low, stack, on_stack, groups = {}, {}, [], set(), []
    sys.setrecursionlimit(100_000)

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            groups.append(sorted(group))
    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return groups


def main(arguments):
    build()
    declared, uses = read_index(load(toolchain_lib()))
    between = collections.defaultdict(list)   # (folder, folder) -> [(symbol, file, line)]
    file_edges = set()
    files = {path for path, _ in declared.values()} | {path for path, _, _ in uses}
    for path, usr, line in uses:
        if usr not in declared or declared[usr][0] == path:
            continue
        target, name = declared[usr]
        file_edges.add((os.path.relpath(path, sources), os.path.relpath(target, sources)))
        if folder(path) != folder(target):
            between[(folder(path), folder(target))].append((name, os.path.relpath(path, sources), line))
    if '--why' in arguments:
        a, b = arguments[arguments.index('--why') + 1:][:2]
        for name, path, line in sorted(between[(a, b)], key=lambda use: (use[1], use[2])):
            print(f'{path}:{line}: {name}')
        return
    folders = {folder(path) for path in files}
    groups = strongly_connected(folders, between.keys())
    cycles = [group for group in groups if len(group) > 1]
    print(f'{len(folders)} folders, {len(between)} folder edges; '
          f'{sum(len(group) for group in cycles)} folders in {len(cycles)} cycle(s)')
    for group in cycles:
        print('  cycle:', ' '.join(group))
    relative = {os.path.relpath(path, sources) for path in files}
    largest = max(strongly_connected(relative, file_edges), key=len)
    print(f'{len(relative)} files; the largest file cycle has {len(largest)}')
    if '--files' in arguments:
        for path in sorted(relative):
            print(('* ' if path in largest else '  ') + path)
    for (a, b), found in sorted(between.items()):
        print(f'  {a} -> {b}: {len(found)} uses of {len({name for name, _, _ in found})} symbols')


if __name__ == '__main__':
    main(sys.argv[1:])
