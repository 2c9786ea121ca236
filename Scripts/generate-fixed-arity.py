#!/usr/bin/env python3
"""Writes Sources/Joinery/Building/Registrar+FixedArity.swift and
Sources/Joinery/Resolution/FixedArityArguments.swift.

Autowiring through a parameter pack is not specialized by the optimizer (Swift 6.3): every
parameter would be resolved by unspecialized generic code, with allocations (measured: the
4-object graph 1.5x hand-written with these overloads, 3.5x and 7 allocations without). These
fixed-arity overloads, which Swift prefers over the pack version, are specialized at the client's
call site instead. They are documented like the pack forms they stand for. CI re-runs this
script and fails if the files differ. Run: python3 Scripts/generate-fixed-arity.py, then
swift format -i on the two files.
"""
import os

MAX_ARITY = 6
MAX_ARGUMENTS = 3
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Sources", "Joinery", "Building", "Registrar+FixedArity.swift")
OUT_ARGUMENTS = os.path.join(
    HERE, "..", "Sources", "Joinery", "Resolution", "FixedArityArguments.swift")


def zero_overload():
    return '''
  /// Binds `type` to an initializer without parameters, specialized at the call site.
  ///
  /// ```swift
  /// registrar.bind(Clock.self, lifetime: .persistent, to: SystemClock.init)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type; the initializer's result converts to it.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, for persistent, cached and scoped lifetimes.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The function that builds the instance.
  @_documentation(visibility: internal)
  @inlinable
  public mutating func bind<T>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable () throws -> T
  ) {
    add(
      T.self, tag: tag, lifetime: resolved(lifetime), isOverride: isOverride,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: [], metadata: metadata, disposer: Self.disposer(dispose),
      maker: { _, _, out in out.initialize(to: try initializer()) })
  }
'''


def dependency_docs(n):
    ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
    return "".join(
        f"  ///   - d{i}: How the {ordinals[i - 1]} parameter is resolved.\n" for i in range(1, n + 1))


def argument_docs(n):
    ordinals = ["first", "second", "third"]
    return "".join(
        f"  ///   - a{i}: The {ordinals[i - 1]} runtime argument.\n" for i in range(1, n + 1))


def doc(kind, n):
    params = ", ".join(f"P{i}" for i in range(1, n + 1))
    if kind == "plain":
        return f'''  /// Binds `type` to an initializer of {n} parameter{"s" if n > 1 else ""} ({params}), each resolved untagged; the
  /// fixed-arity form of the parameter-pack `bind(_:tag:lifetime:override:metadata:dispose:fileID:line:to:)`,
  /// specialized at the call site.
  ///
  /// ```swift
  /// registrar.bind(FeedService.self, lifetime: .persistent, to: FeedService.init)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type; the initializer's result converts to it.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, for persistent, cached and scoped lifetimes.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The function that builds the instance from its dependencies.
'''
    return f'''  /// Binds `type` to an initializer of {n} parameter{"s" if n > 1 else ""} ({params}) resolved as `dependencies` say;
  /// the fixed-arity form of the parameter-pack
  /// `bind(_:tag:lifetime:override:metadata:dispose:fileID:line:to:dependencies:)`, specialized at the
  /// call site.
  ///
  /// ```swift
  /// registrar.bind(Uploader.self, to: Uploader.init, dependencies: .tagged("background"))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type; the initializer's result converts to it.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, for persistent, cached and scoped lifetimes.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The function that builds the instance from its dependencies.
{dependency_docs(n)}'''


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
{doc("plain", n)}  @_documentation(visibility: internal)
  @inlinable
  public mutating func bind<{generics}>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable ({signature}) throws -> T
  ) {{
    add(
      T.self, tag: tag, lifetime: resolved(lifetime), isOverride: isOverride,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: Self.declared({declared}), metadata: metadata, disposer: Self.disposer(dispose),
      maker: {{ resolver, _, out in
        out.initialize(to: try initializer({plain}))
      }})
  }}

{doc("tagged", n)}  @_documentation(visibility: internal)
  @inlinable
  public mutating func bind<{generics}>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable ({signature}) throws -> T{dep_params}
  ) {{
{interning}
    add(
      T.self, tag: tag, lifetime: resolved(lifetime), isOverride: isOverride,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: [{dep_list}], metadata: metadata, disposer: Self.disposer(dispose),
      maker: {{ resolver, _, out in
        out.initialize(to: try initializer({tagged}))
      }})
  }}
'''


def async_overload(n):
    params = [f"P{i}" for i in range(1, n + 1)]
    generics = ", ".join(["T: Sendable"] + [f"{p}: Sendable" for p in params])
    names = ", ".join(params)
    awaited = ", ".join(f"try await resolver.resolveAsync({p}.self)" for p in params)
    declared = ", ".join(f"{p}.self" for p in params)
    return f'''
  /// Binds `type` to an initializer (sync or `async`) of {n} parameter{"s" if n > 1 else ""} ({names}), each awaited
  /// untagged; the fixed-arity form of the parameter-pack
  /// `bindAsync(_:tag:lifetime:override:metadata:dispose:fileID:line:to:)`, specialized at the call site.
  ///
  /// ```swift
  /// registrar.bindAsync(UserRepository.self, lifetime: .persistent, to: UserRepository.init)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, for persistent, cached and scoped lifetimes.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: Builds the instance from its awaited dependencies.
  @_documentation(visibility: internal)
  @inlinable @_disfavoredOverload
  public mutating func bindAsync<{generics}>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable ({names}) async throws -> T
  ) {{
    addAsync(
      T.self, tag: tag, lifetime: resolved(lifetime), isOverride: isOverride,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: Self.declared({declared}), metadata: metadata,
      disposer: Self.disposer(dispose),
      maker: {{ resolver in try await initializer({awaited}) }})
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
    isolation = "isolation: isolated (any Actor)? = #isolation"
    isolated_params = (
        "    _ type: T.Type = T.self, tag: some Hashable & Sendable = nil as BindingTag?,\n"
        f"    matching: TagMatching = .allowingFallback, {resolve_params},\n    {isolation}")
    return f'''
extension Registrar {{
  /// Binds `type` to a factory that takes {n} runtime argument{"s" if n > 1 else ""}; the fixed-arity form of the
  /// parameter-pack `bind(_:tag:override:dependsOn:metadata:fileID:line:_:)`, specialized at the call site.
  ///
  /// ```swift
  /// registrar.bind(Download.self) {{ (resolver, url: URL) in Download(url: url) }}
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - dependencies: The keys the factory resolves, for `build()` to check.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds a new instance from a resolver and the arguments.
  @_documentation(visibility: internal)
  @inlinable
  public mutating func bind<{generics}>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, override isOverride: Bool = false,
    dependsOn dependencies: [BindingKey]? = nil, metadata: (any Sendable)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (borrowing Resolver, {", ".join(params)}) throws -> T
  ) {{
    addArguments(
      T.self, tag: tag, signature: {signature}.self, isOverride: isOverride,
      dependencies: dependencies, metadata: metadata,
      location: BindingLocation(fileID: fileID, line: line)
    ) {{ resolver, arguments, out in
      let {values} = arguments.load(as: {signature}.self)
      out.initialize(to: try factory(resolver, {", ".join(names)}))
    }}
  }}
}}

extension Resolving where Self: ~Copyable {{
  /// Returns a new instance from a binding that takes {n} runtime argument{"s" if n > 1 else ""}; the fixed-arity form
  /// of the parameter-pack `resolve(_:tag:matching:arguments:isolation:)`, specialized at the
  /// call site.
  ///
  /// ```swift
  /// let download = try container.resolve(Download.self, arguments: url)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The binding's tag; untagged when omitted.
  ///   - matching: Whether the untagged binding may serve a tagged request.
{argument_docs(n)}  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: A new instance.
  /// - Throws: ``ResolutionError``.
  @_documentation(visibility: internal)
  @inlinable @inline(__always)
  public func resolve<{generics}>(
{isolated_params}
  ) throws(ResolutionError) -> T {{
    try _requestPoint(for: T.self, isolation: isolation).run(T.self, tag: tag) {{
      container, context throws(ResolutionError) in
      try _Arguments.with({values}) {{ arguments throws(ResolutionError) -> T in
        try container.resolve(
          T.self, requestTag: tag, matching: matching, signature: {signature}.self,
          arguments: arguments, parent: context)
      }}
    }}
  }}
}}
'''


def main():
    body = zero_overload() + "".join(overloads(n) for n in range(1, MAX_ARITY + 1))
    body += "".join(async_overload(n) for n in range(1, MAX_ARITY + 1))
    text = f'''public import JoineryEngine

// Generated by Scripts/generate-fixed-arity.py; do not edit by hand.

// Fixed-arity autowiring, specialized at the call site. The parameter-pack `bind(_:to:)`,
// `bind(_:to:dependencies:)` and `bindAsync(_:to:)` serve any arity; Swift prefers these
// overloads for 0…{MAX_ARITY} parameters (1…{MAX_ARITY} for `bindAsync`), so each parameter is
// resolved by specialized code instead of through runtime generic metadata (Swift does not
// specialize parameter packs). Each has the spelling, labels and defaults of its pack form, which
// is the one DocC shows: `@_documentation(visibility: internal)` keeps these out of the docs and
// out of the public declaration count (Scripts/count-public-api.py counts them apart).
extension Registrar {{{body}}}
'''
    with open(OUT, "w") as f:
        f.write(text)
    body = "".join(argument_overloads(n) for n in range(1, MAX_ARGUMENTS + 1))
    text = f'''public import JoineryEngine

// Generated by Scripts/generate-fixed-arity.py; do not edit by hand.

// Runtime arguments of fixed arity, specialized at the call site. The parameter-pack
// `bind(_:tag:override:dependsOn:metadata:fileID:line:_:)` and
// `resolve(_:tag:matching:arguments:isolation:)` are the documented API and serve any number
// of arguments; Swift prefers these overloads for 1…{MAX_ARGUMENTS}, which pass the arguments as a
// tuple of statically known type instead of building its metadata at run time. Hidden from the docs like the autowiring overloads (Registrar+FixedArity.swift).
{body}'''
    with open(OUT_ARGUMENTS, "w") as f:
        f.write(text)


main()
