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


# The autowired forms that get fixed-arity overloads: every `to:` and `to:dependencies:` form.
# `what` starts each overload's summary; `example` is its example call.
SYNC_FORMS = [
    dict(name="bind", what="Binds `type` to", main_actor=False, contributes=False,
         example="registrar.bind(FeedService.self, lifetime: .persistent, to: FeedService.init)",
         tagged_example='registrar.bind(Uploader.self, to: Uploader.init, dependencies: .tagged("background"))'),
    dict(name="contribute", what="Adds to the multi-binding of `type` an instance made by",
         main_actor=False, contributes=True,
         example="registrar.contribute(Plugin.self, to: WordCount.init(counter:))",
         tagged_example='registrar.contribute(Plugin.self, to: Exporter.init(store:), dependencies: .tagged("disk"))'),
    dict(name="bindMainActor", what="Binds `type` to a main-actor", main_actor=True,
         contributes=False,
         example="registrar.bindMainActor(FeedViewModel.self, to: FeedViewModel.init(feed:))",
         tagged_example='registrar.bindMainActor(Banner.self, to: Banner.init(text:), dependencies: .tagged("promo"))'),
]
ASYNC_FORMS = [
    dict(name="bindAsync", what="Binds `type` to", contributes=False,
         example="registrar.bindAsync(UserRepository.self, lifetime: .persistent, to: UserRepository.init)",
         tagged_example='registrar.bindAsync(Replica.self, to: Replica.init(database:), dependencies: .tagged("read"))'),
    dict(name="contributeAsync", what="Adds to the multi-binding of `type` an instance made by",
         contributes=True,
         example="registrar.contributeAsync(Migration.self, to: AddUsers.init(database:))",
         tagged_example='registrar.contributeAsync(Migration.self, to: AddUsers.init(database:), dependencies: .tagged("main"))'),
]

COMMON_DOCS = """  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, for persistent, cached and scoped lifetimes.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
"""

SIGNATURE_HEAD = """    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
"""


def dependency_docs(n):
    ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
    return "".join(
        f"  ///   - d{i}: How the {ordinals[i - 1]} parameter is resolved.\n" for i in range(1, n + 1))


def argument_docs(n):
    ordinals = ["first", "second", "third"]
    return "".join(
        f"  ///   - a{i}: The {ordinals[i - 1]} runtime argument.\n" for i in range(1, n + 1))


def plural(n):
    return "s" if n != 1 else ""


def sync_body(form, dependencies, arguments, parameter):
    """The call that declares the binding; `arguments` resolves each parameter."""
    if form["main_actor"]:
        return f"""    addMainActor(
      T.self, tag: tag, lifetime: resolved(lifetime), isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: {dependencies}, metadata: metadata, disposer: Self.disposer(dispose)
    ) {{ {parameter} in
      try initializer({arguments})
    }}
"""
    contributes = " contributes: true," if form["contributes"] else ""
    return f"""    add(
      T.self, tag: tag, lifetime: resolved(lifetime), isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: {dependencies}, metadata: metadata, disposer: Self.disposer(dispose),{contributes}
      maker: {{ {parameter}, _, out in
        out.initialize(to: try initializer({arguments}))
      }})
"""


def overload(summary, example, type_doc, initializer_doc, extra_docs, attributes, name, generics,
             initializer, body, prologue=""):
    """One hidden overload: `summary` is its first doc lines, `body` the call that declares it."""
    return f"""
{summary}  ///
  /// ```swift
  /// {example}
  /// ```
  ///
  /// - Parameters:
  ///   - type: {type_doc}
{COMMON_DOCS}  ///   - initializer: {initializer_doc}
{extra_docs}  @_documentation(visibility: internal)
  {attributes}
  public mutating func {name}<{generics}>(
{SIGNATURE_HEAD}    to initializer: {initializer}
  ) {{
{prologue}{body}  }}
"""


def tagged_parts(params):
    """The `dependencies:` parameters of a tagged form, their declared list and their interning."""
    n = len(params)
    dep_params = ",\n    dependencies " + ",\n    ".join(
        f"{'' if i == 1 else '_ '}d{i}: Dependency<{p}>" for i, p in enumerate(params, 1))
    dep_list = "[" + ", ".join(f"d{i}.declared" for i in range(1, n + 1)) + "]"
    interning = "".join(f"    let d{i} = interned(d{i})\n" for i in range(1, n + 1))
    return dep_params, dep_list, interning


def sync_overloads(form, n):
    name = form["name"]
    params = [f"P{i}" for i in range(1, n + 1)]
    generics = ", ".join(["T"] + params)
    listed = ", ".join(params)
    isolation = "@MainActor @Sendable" if form["main_actor"] else "@Sendable"
    # `consuming`, as an initializer takes its parameters: each resolved argument is handed
    # over instead of copied (a retain and a release fewer per class-typed argument).
    signature = ", ".join(f"consuming {p}" for p in params)
    type_doc = "The bound type; the initializer's result converts to it."
    if n == 0:
        return overload(
            f"  /// {form['what']} an initializer without parameters, specialized at the call site.\n",
            form["example"], type_doc, "The function that builds the instance.", "", "@inlinable",
            name, "T", f"@escaping {isolation} () throws -> T", sync_body(form, "[]", "", "_"))
    plain = ", ".join("try resolver.resolve()" for _ in params)
    declared = ", ".join(f"{p}.self" for p in params)
    tagged = ", ".join(f"try resolver.resolve(d{i})" for i in range(1, n + 1))
    dep_params, dep_list, interning = tagged_parts(params)
    initializer = f"@escaping {isolation} ({signature}) throws -> T"
    built = "The function that builds the instance from its dependencies."
    return overload(
        f"""  /// {form["what"]} an initializer of {n} parameter{plural(n)} ({listed}), each resolved untagged; the
  /// fixed-arity form of the parameter-pack `{name}(_:tag:lifetime:override:metadata:dispose:fileID:line:to:)`,
  /// specialized at the call site.
""", form["example"], type_doc, built, "", "@inlinable", name, generics, initializer,
        sync_body(form, f"Self.declared({declared})", plain, "resolver")) + overload(
        f"""  /// {form["what"]} an initializer of {n} parameter{plural(n)} ({listed}) resolved as `dependencies` say;
  /// the fixed-arity form of the parameter-pack
  /// `{name}(_:tag:lifetime:override:metadata:dispose:fileID:line:to:dependencies:)`, specialized at the
  /// call site.
""", form["tagged_example"], type_doc, built, dependency_docs(n), "@inlinable", name, generics,
        initializer + dep_params, sync_body(form, dep_list, tagged, "resolver"), interning)


def async_overloads(form, n):
    name = form["name"]
    params = [f"P{i}" for i in range(1, n + 1)]
    generics = ", ".join(["T: Sendable"] + [f"{p}: Sendable" for p in params])
    listed = ", ".join(params)
    awaited = ", ".join(f"try await resolver.resolveAsync({p}.self)" for p in params)
    declared = ", ".join(f"{p}.self" for p in params)
    tagged = ", ".join(f"try await resolver.resolveAsync(d{i})" for i in range(1, n + 1))
    dep_params, dep_list, interning = tagged_parts(params)
    contributes = " contributes: true," if form["contributes"] else ""
    initializer = f"@escaping @Sendable ({listed}) async throws -> T"
    built = "Builds the instance from its awaited dependencies."
    attributes = "@inlinable @_disfavoredOverload"

    def body(dependencies, arguments):
        return f"""    addAsync(
      T.self, tag: tag, lifetime: resolved(lifetime), isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: {dependencies}, metadata: metadata,
      disposer: Self.disposer(dispose),{contributes}
      maker: {{ resolver in try await initializer({arguments}) }})
"""
    return overload(
        f"""  /// {form["what"]} an initializer (sync or `async`) of {n} parameter{plural(n)} ({listed}), each awaited
  /// untagged; the fixed-arity form of the parameter-pack
  /// `{name}(_:tag:lifetime:override:metadata:dispose:fileID:line:to:)`, specialized at the call site.
""", form["example"], "The bound type.", built, "", attributes, name, generics, initializer,
        body(f"Self.declared({declared})", awaited)) + overload(
        f"""  /// {form["what"]} an initializer (sync or `async`) of {n} parameter{plural(n)} ({listed}), each awaited
  /// as `dependencies` say; the fixed-arity form of the parameter-pack
  /// `{name}(_:tag:lifetime:override:metadata:dispose:fileID:line:to:dependencies:)`, specialized at
  /// the call site.
""", form["tagged_example"], "The bound type.", built, dependency_docs(n), attributes, name,
        generics, initializer + dep_params, body(dep_list, tagged), interning)


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
      location: BindingLocation(file: fileID, line: line)
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
    body = "".join(
        sync_overloads(form, n) for form in SYNC_FORMS for n in range(0, MAX_ARITY + 1))
    body += "".join(
        async_overloads(form, n) for form in ASYNC_FORMS for n in range(1, MAX_ARITY + 1))
    text = f'''public import JoineryEngine

// Generated by Scripts/generate-fixed-arity.py; do not edit by hand.

// Fixed-arity autowiring, specialized at the call site. The parameter-pack `to:` and
// `to:dependencies:` forms of `bind`, `contribute`, `bindMainActor`, `bindAsync` and
// `contributeAsync` serve any arity; Swift prefers these overloads for 0…{MAX_ARITY} parameters
// (1…{MAX_ARITY} for the async forms), so each parameter is resolved by specialized code instead
// of through runtime generic metadata (Swift does not specialize parameter packs), whichever
// form declares the binding. Each has the spelling, labels and defaults of its pack form, which
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
