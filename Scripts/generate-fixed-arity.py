#!/usr/bin/env python3
"""Writes Sources/Joinery/Building/Registrar+FixedArity.swift.

Autowiring through a parameter pack is not specialized by the optimizer (Swift 6.3): every
parameter would be resolved by unspecialized generic code. These fixed-arity overloads, which
Swift prefers over the pack version, are specialized at the client's call site instead. They are
hidden from the documentation: the pack-based `bind` is the documented API, these only make it
fast. Run: python3 Scripts/generate-fixed-arity.py
"""
import os

MAX_ARITY = 6
MAX_ARGUMENTS = 3
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Sources", "Joinery", "Building", "Registrar+FixedArity.swift")
OUT_ARGUMENTS = os.path.join(
    HERE, "..", "Sources", "Joinery", "Resolution", "FixedArityArguments.swift")


def overloads(n):
    params = [f"P{i}" for i in range(1, n + 1)]
    generics = ", ".join(["T"] + params)
    # `consuming`, as an initializer takes its parameters: each resolved argument is handed
    # over instead of copied (a retain and a release fewer per class-typed argument).
    signature = ", ".join(f"consuming {p}" for p in params)
    plain = ", ".join("try resolver.resolve()" for _ in params)
    declared = ", ".join(f"{p}.self" for p in params)
    deps = ", ".join(f"_ d{i}: Dependency<{p}>" for i, p in enumerate(params, 1))
    dep_list = ", ".join(f"d{i}.declared" for i in range(1, n + 1))
    tagged = ", ".join(f"try resolver.resolve(d{i})" for i in range(1, n + 1))
    dep_params = ",\n    dependencies " + ",\n    ".join(
        f"{'' if i == 1 else '_ '}d{i}: Dependency<{p}>" for i, p in enumerate(params, 1))
    interning = "\n".join(f"    let d{i} = interned(d{i})" for i in range(1, n + 1))
    return f'''
  @_documentation(visibility: internal)
  @inlinable
  public mutating func bind<{generics}>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime = .ephemeral,
    override isOverride: Bool = false, metadata: (any Sendable)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable ({signature}) throws -> T
  ) {{
    add(
      T.self, tag: tag, lifetime: lifetime, isOverride: isOverride,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: Self.declared({declared}), metadata: metadata,
      maker: {{ resolver, out in
        out.initializeMemory(as: T.self, to: try initializer({plain}))
      }})
  }}

  @_documentation(visibility: internal)
  @inlinable
  public mutating func bind<{generics}>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime = .ephemeral,
    override isOverride: Bool = false, metadata: (any Sendable)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable ({signature}) throws -> T{dep_params}
  ) {{
{interning}
    add(
      T.self, tag: tag, lifetime: lifetime, isOverride: isOverride,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: [{dep_list}], metadata: metadata,
      maker: {{ resolver, out in
        out.initializeMemory(as: T.self, to: try initializer({tagged}))
      }})
  }}
'''


def argument_overloads(n):
    params = [f"A{i}" for i in range(1, n + 1)]
    generics = ", ".join(["T"] + params)
    signature = f"({', '.join(params)})" if n > 1 else params[0]
    names = [f"a{i}" for i in range(1, n + 1)]
    values = f"({', '.join(names)})" if n > 1 else names[0]
    resolve_params = ", ".join(
        (f"arguments {names[i]}: {p}" if i == 0 else f"_ {names[i]}: {p}") for i, p in enumerate(params))
    return f'''
extension Registrar {{
  @_documentation(visibility: internal)
  @inlinable
  public mutating func bind<{generics}>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, override isOverride: Bool = false,
    dependsOn dependencies: [BindingKey]? = nil, fileID: StaticString = #fileID,
    line: UInt = #line,
    _ factory: @escaping @Sendable (borrowing Resolver, {", ".join(params)}) throws -> T
  ) {{
    addArguments(
      T.self, tag: tag, signature: {signature}.self, isOverride: isOverride,
      dependencies: dependencies, location: BindingLocation(fileID: fileID, line: line)
    ) {{ resolver, arguments, out in
      let {values} = arguments.load(as: {signature}.self)
      out.initializeMemory(as: T.self, to: try factory(resolver, {", ".join(names)}))
    }}
  }}
}}

extension Container {{
  @_documentation(visibility: internal)
  @inlinable
  public func resolve<{generics}>(
    _ type: T.Type = T.self, {resolve_params}
  ) throws(ResolutionError) -> T {{
    try withUnsafePointer(to: {values}) {{ pointer throws(ResolutionError) -> T in
      try resolve(
        T.self, tag: nil as BindingTag?, matching: .allowingFallback, signature: {signature}.self,
        arguments: UnsafeRawPointer(pointer), parent: nil)
    }}
  }}
}}

extension Resolver {{
  @_documentation(visibility: internal)
  @inlinable
  public func resolve<{generics}>(
    _ type: T.Type = T.self, {resolve_params}
  ) throws(ResolutionError) -> T {{
    let frame = frame
    return try withContainer {{ container throws(ResolutionError) -> T in
      try withUnsafePointer(to: {values}) {{ pointer throws(ResolutionError) -> T in
        try container.resolve(
          T.self, tag: nil as BindingTag?, matching: .allowingFallback,
          signature: {signature}.self, arguments: UnsafeRawPointer(pointer), parent: frame)
      }}
    }}
  }}
}}
'''


def main():
    body = "".join(overloads(n) for n in range(1, MAX_ARITY + 1))
    text = f'''// Generated by Scripts/generate-fixed-arity.py; do not edit by hand.

// Fixed-arity autowiring, specialized at the call site. The parameter-pack `bind(_:to:)` and
// `bind(_:to:dependencies:)` in Registrar.swift are the documented API and serve any arity;
// Swift prefers these overloads for 1…{MAX_ARITY} parameters, so each parameter is resolved by
// specialized code instead of through runtime generic metadata.
extension Registrar {{{body}}}
'''
    with open(OUT, "w") as f:
        f.write(text)
    body = "".join(argument_overloads(n) for n in range(1, MAX_ARGUMENTS + 1))
    text = f'''// Generated by Scripts/generate-fixed-arity.py; do not edit by hand.

// Runtime arguments of fixed arity, specialized at the call site. The parameter-pack
// `bind(_:tag:override:dependsOn:fileID:line:_:)` and `resolve(_:arguments:)` are the documented
// API and serve any number of arguments; Swift prefers these overloads for 1…{MAX_ARGUMENTS}, which
// pass the arguments as a tuple of statically known type instead of building its metadata at
// run time.
{body}'''
    with open(OUT_ARGUMENTS, "w") as f:
        f.write(text)


main()
