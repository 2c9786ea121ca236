// Every spelling Joinery replaced, in one place: each still compiles, with a warning that names
// its replacement, and each is listed under "Removed spellings" in CHANGELOG.md. None is part of
// the documented surface (Scripts/count-public-api.py does not count them).

extension ContainerBuilder {
  /// Adds a register to this builder.
  ///
  /// ```swift
  /// builder = builder.adding(AnalyticsAssembly())
  /// ```
  ///
  /// - Parameter register: An assembly or other register.
  @available(
    *, deprecated, message: "use 'builder = builder.adding(register)': one way to add a register"
  )
  public mutating func add(_ register: some DependencyRegister) {
    registers.append(register)
  }

  /// Adds a register whose bindings replace bindings of the same key elsewhere.
  ///
  /// ```swift
  /// builder = builder.overriding(with: MockNetwork())
  /// ```
  ///
  /// - Parameter register: The register with replacement bindings.
  @available(
    *, deprecated,
    message: "use 'builder = builder.overriding(with: register)': one way to override"
  )
  public mutating func override(with register: some DependencyRegister) {
    overrides.append(register)
  }
}

extension Container {
  /// Resolves on the main actor: synchronously when called there, with `await` from anywhere
  /// else, so main-actor factories (``Registrar/bindMainActor(_:tag:lifetime:override:dependsOn:metadata:dispose:fileID:line:_:)``)
  /// run where they must.
  ///
  /// ```swift
  /// @MainActor func show() throws {
  ///   let model = try container.resolveOnMainActor(FeedViewModel.self)
  /// }
  /// func prepare() async throws {
  ///   let model = try await container.resolveOnMainActor(FeedViewModel.self)
  /// }
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  @available(
    *, deprecated,
    message: """
      call 'resolve' from main-actor code (its isolation is passed implicitly), or \
      'await MainActor.run { try container.resolve(T.self) }'
      """
  )
  @MainActor
  public func resolveOnMainActor<T>(_ type: T.Type = T.self) throws(ResolutionError) -> T {
    try checkOpen(T.self)
    return try onMainActor { parent throws(ResolutionError) in try resolve(T.self, parent: parent) }
  }

  /// Resolves a tagged binding on the main actor.
  ///
  /// ```swift
  /// let model = try await container.resolveOnMainActor(FeedViewModel.self, tag: "compact")
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  @available(
    *, deprecated,
    message: """
      call 'resolve' from main-actor code (its isolation is passed implicitly), or \
      'await MainActor.run { try container.resolve(T.self) }'
      """
  )
  @MainActor
  public func resolveOnMainActor<T>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable
  ) throws(ResolutionError) -> T {
    try checkOpen(T.self)
    return try onMainActor { parent throws(ResolutionError) in
      try resolve(T.self, tag: tag, matching: .allowingFallback, parent: parent)
    }
  }
}

extension [ResolutionStep] {
  /// The path as one line: `App → FeedService → HTTPClient`.
  ///
  /// ```swift
  /// print(error.path.map(\.description).joined(separator: " → "))
  /// ```
  @available(
    *, deprecated,
    message:
      "use 'path.map(\\.description).joined(separator: \" → \")'; a ResolutionError's description shows its path"
  )
  public var arrowText: String { arrowLine }
}

extension Diagnostic {
  /// Where the finding points: the declarations involved, `Assembly at file:line`.
  ///
  /// ```swift
  /// let places = diagnostic.bindings.map { "\($0.registerName) at \($0.location)" }
  /// ```
  @available(*, deprecated, message: "use 'bindings', each with its 'registerType' and 'location'")
  public var locations: [String] { bindings.map { "\($0.registerName) at \($0.location)" } }
}

extension Diagnostic.Code {
  /// The rule's name.
  ///
  /// ```swift
  /// let name = "\(diagnostic.code)"
  /// ```
  @available(*, deprecated, message: "use 'description' (\"\\(code)\"), which is the name")
  public var name: String { description }
}

extension ResolutionError.Code {
  /// The code's name.
  ///
  /// ```swift
  /// let name = "\(error.code)"
  /// ```
  @available(*, deprecated, message: "use 'description' (\"\\(code)\"), which is the name")
  public var name: String { description }
}

extension NearMiss {
  /// How a near miss's binding is close to the request.
  @available(
    *, deprecated,
    message:
      "compare 'binding.key' with the error's 'requested': the same type with other argument types, under another tag, or another type"
  )
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    let text: String

    /// The same type under another tag.
    public static let otherTag = Kind(text: "otherTag")
    /// The same type, bound with runtime arguments of other types.
    public static let otherArguments = Kind(text: "otherArguments")
    /// A type with a similar name.
    public static let similarType = Kind(text: "similarType")

    /// The kind's name.
    public var description: String { text }

    /// The kind's name.
    ///
    /// ```swift
    /// let name = "\(miss.kind)"
    /// ```
    @available(*, deprecated, message: "use 'description' (\"\\(kind)\"), which is the name")
    public var name: String { description }
  }

  /// How the binding is close to the request.
  ///
  /// ```swift
  /// let sameType = miss.binding.key.type == error.requested.type
  /// ```
  @available(
    *, deprecated,
    message:
      "compare 'binding.key' with the error's 'requested': the same type with other argument types, under another tag, or another type"
  )
  public var kind: Kind {
    switch closeness {
    case .otherArguments: .otherArguments
    case .otherTag: .otherTag
    case .similarType: .similarType
    }
  }
}

extension CacheGroup {
  /// The group's name.
  ///
  /// ```swift
  /// let name = "\(CacheGroup.default)"  // "default"
  /// ```
  @available(*, deprecated, message: "use 'description' (\"\\(group)\"), which is the name")
  public var name: String { description }
}

extension Resolving where Self: ~Copyable {
  /// Returns the instance bound to `type`, or `nil` when nothing is bound to it.
  ///
  /// Only the absence of a binding gives `nil`; a factory that throws still throws.
  ///
  /// ```swift
  /// let tracker = try container.resolveIfBound(Tracker.self)  // nil in builds without one
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instance, or `nil`.
  /// - Throws: ``ResolutionError`` when a binding exists but fails.
  @available(
    *, deprecated, message: "use 'try resolve(T?.self)': an optional is nil when nothing is bound"
  )
  @inlinable @inline(__always)
  public func resolveIfBound<T>(
    _ type: T.Type = T.self, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T? {
    try _requestPoint(for: T.self, isolation: isolation).run(T.self, tag: nil as BindingTag?) {
      container, context throws(ResolutionError) in
      try container.resolveIfBound(T.self, parent: context)
    }
  }

  /// Returns the instance bound to `type` under `tag` (or, unless exact, untagged), or `nil`
  /// when neither is bound.
  ///
  /// ```swift
  /// let audit = try container.resolveIfBound(Logger.self, tag: "audit")
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag.
  ///   - matching: Whether the untagged binding may serve the request.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instance, or `nil`.
  /// - Throws: ``ResolutionError`` when a binding exists but fails.
  @available(
    *, deprecated,
    message: "use 'try resolve(T?.self, tag: tag)': an optional is nil when nothing is bound"
  )
  @inlinable @inline(__always)
  public func resolveIfBound<T>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T? {
    try _requestPoint(for: T.self, isolation: isolation).run(T.self, tag: tag) {
      container, context throws(ResolutionError) in
      try container.resolveIfBound(T.self, tag: tag, matching: matching, parent: context)
    }
  }

  /// Returns a new instance from the binding of `type` that takes these runtime arguments, or
  /// `nil` when no binding of `type` takes exactly these argument types.
  ///
  /// ```swift
  /// let download = try container.resolveIfBound(Download.self, arguments: url, 3)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - first: The first runtime argument.
  ///   - rest: The other runtime arguments, if any.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instance, or `nil`.
  /// - Throws: ``ResolutionError`` when such a binding exists but fails.
  @available(
    *, deprecated,
    message: "use 'try resolve(T?.self, arguments: …)': an optional is nil when nothing is bound"
  )
  @inlinable @inline(__always)
  public func resolveIfBound<T, First, each Argument>(
    _ type: T.Type = T.self, arguments first: First, _ rest: repeat each Argument,
    isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T? {
    try _requestPoint(for: T.self, isolation: isolation).run(T.self, tag: nil as BindingTag?) {
      container, context throws(ResolutionError) -> T? in
      let signature = BindingKey(T.self, argumentTypes: (First, repeat each Argument).self)
      guard container.binds(signature) else { return nil }
      return try container.resolve(
        T.self, tag: nil as BindingTag?, matching: .allowingFallback,
        arguments: first, repeat each rest, parent: context)
    }
  }
}

extension Lifetime {
  /// A lifetime that never shares an instance between threads, as a default lifetime takes it.
  ///
  /// ```swift
  /// var defaultLifetime: Lifetime.For<Any>? { .graph }
  /// ```
  @available(
    *, deprecated,
    message: "write 'Lifetime.For<Any>': one lifetime type for bindings and defaults"
  )
  public typealias Unshared = For<Any>
}

extension Lifetime.For where Instance == Any {
  /// The lifetime a default names: ephemeral for ``Lifetime/For/default``.
  ///
  /// ```swift
  /// let lifetime = builder.defaultLifetime.lifetime
  /// ```
  @available(*, deprecated, message: "compare the default with '.graph' or '.ephemeral' instead")
  public var lifetime: Lifetime { explicit ?? .ephemeral }
}

/// A register written as a closure.
///
/// ```swift
/// let container = try ContainerBuilder().adding { registrar in
///   registrar.bind(Clock.self, lifetime: .persistent) { FixedClock() }
/// }.build()
/// ```
@available(
  *, deprecated,
  message: """
    pass the closure itself: 'builder.adding { … }', 'builder.overriding { … }', \
    'container.makeChild { … }'; or give the register a type (an Assembly)
    """
)
public struct InlineRegister: DependencyRegister, Hashable {
  private let register: ClosureRegister

  /// Wraps `body` as a register.
  ///
  /// - Parameter body: Declares the bindings, as ``DependencyRegister/register(in:)`` does.
  @available(*, deprecated, message: "pass the closure itself: 'builder.adding { … }'")
  public init(_ body: @escaping @Sendable (inout Registrar) -> Void) {
    register = ClosureRegister(body)
  }

  /// Adds the bindings of the closure this register was made with.
  @available(*, deprecated, message: "pass the closure itself: 'builder.adding { … }'")
  public func register(in registrar: inout Registrar) { register.register(in: &registrar) }
}

extension DependencyGraph.Edge {
  /// How an edge is known: declared by its binding, or observed by `verify()`.
  @available(*, deprecated, message: "use 'edge.isObserved'")
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    let isObserved: Bool
    /// Declared by the binding; checked by `build()`.
    @available(*, deprecated, message: "use 'edge.isObserved == false'")
    public static let declared = Kind(isObserved: false)
    /// Seen when ``Container/verify(arguments:)`` ran the factory.
    @available(*, deprecated, message: "use 'edge.isObserved'")
    public static let observed = Kind(isObserved: true)
    /// A one-line, human-readable description.
    @available(*, deprecated, message: "use 'edge.isObserved'")
    public var description: String { isObserved ? "observed" : "declared" }
  }

  /// Declared or observed.
  @available(*, deprecated, message: "use 'edge.isObserved'")
  public var kind: Kind { Kind(isObserved: isObserved) }
}

extension ResolutionError {
  /// The error a factory threw, if it is a `T`.
  ///
  /// ```swift
  /// if let denied = error.underlyingError as? AccessDenied { throw denied }
  /// ```
  ///
  /// - Parameter type: The error type (or protocol) to look for.
  /// - Returns: The factory's error as a `T`, or `nil`.
  @available(*, deprecated, message: "use 'error.underlyingError as? T'")
  public func factoryError<T>(as type: T.Type = T.self) -> T? { underlyingError as? T }
}

extension BindingInfo {
  /// The name of the register (assembly) that declared the binding.
  ///
  /// ```swift
  /// let name = "\(binding.registerType)"
  /// ```
  @available(*, deprecated, message: "use '\\(binding.registerType)', the same text")
  public var assembly: String { registerName }
}

extension BindingKey {
  /// The type's short name.
  ///
  /// ```swift
  /// let name = "\(key.type)"
  /// ```
  @available(*, deprecated, message: "use '\\(key.type)', the same text")
  public var typeName: String { shortName }
}

extension Lazy {
  /// The instance, resolved on the first call from a binding that takes runtime arguments and
  /// kept afterwards, whatever arguments later calls pass.
  ///
  /// ```swift
  /// let exporter = try provider.get(arguments: Format.pdf)
  /// ```
  ///
  /// - Parameter arguments: The runtime arguments of the first call.
  /// - Returns: The instance made with the first call's arguments.
  /// - Throws: ``ResolutionError``.
  @available(
    *, deprecated,
    message: """
      use a Provider: 'provider.get(arguments:)' makes an instance per arguments; a Lazy \
      kept the first call's instance whatever later calls passed
      """
  )
  public func get<each Argument>(arguments: repeat each Argument) throws(ResolutionError) -> Value {
    try getOnce(arguments: repeat each arguments)
  }
}

/// A typed name for one binding: its type, tag, and (for a multi-binding element) its place.
///
/// ```swift
/// extension Key where Value == any Logger {
///   static let audit = Key(Logger.self, tag: "audit")
/// }
/// let logger = try container.resolve(.audit)
/// ```
@available(
  *, deprecated,
  message: """
    resolve by type and tag, 'resolve(T.self, tag: tag)'; to choose contributions, \
    'resolveAll(T.self) { binding in … }'
    """
)
public struct Key<Value>: Hashable, Sendable, CustomStringConvertible {
  /// The binding's key.
  @available(*, deprecated, message: "Key is deprecated: resolve by type and tag")
  public let binding: BindingKey
  /// For a contribution to a multi-binding, its place among the contributions.
  @available(*, deprecated, message: "Key is deprecated: resolve by type and tag")
  public let contributionIndex: Int?

  init(binding: BindingKey, contributionIndex: Int?) {
    self.binding = binding
    self.contributionIndex = contributionIndex
  }

  /// A key for the binding of `type`, untagged or with `tag`.
  ///
  /// ```swift
  /// let key = Key(FeedService.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: The binding's tag, if any.
  @available(*, deprecated, message: "Key is deprecated: resolve by type and tag")
  public init(_ type: Value.Type = Value.self, tag: (any Hashable & Sendable)? = nil) {
    binding = BindingKey(Value.self, tag: tag)
    contributionIndex = nil
  }

  /// A one-line, human-readable description.
  @available(*, deprecated, message: "Key is deprecated: resolve by type and tag")
  public var description: String {
    contributionIndex.map { "\(binding) #\($0)" } ?? binding.description
  }
}

extension Container {
  /// The keys of the bindings of `type` — ordinary bindings and contributions — that `predicate`
  /// accepts, without creating anything.
  ///
  /// ```swift
  /// let enabled = container.keys(for: Plugin.self) { binding in
  ///   (binding.metadata as? PluginInfo)?.isEnabled == true
  /// }
  /// let plugins = try enabled.map { try container.resolve($0) }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: Only bindings with this tag; all tags when `nil`.
  ///   - predicate: Decides from the binding's description and metadata.
  /// In a child container, the ancestors' bindings count too, as a resolve finds them: an
  /// ordinary binding the child rebinds is listed once, and contributions are those
  /// ``Resolving/resolveAll(_:tag:where:isolation:)`` returns.
  ///
  /// - Returns: Typed keys, ordinary bindings first (sorted by key), then contributions in order.
  @available(
    *, deprecated,
    message: """
      to choose contributions, 'resolveAll(T.self) { binding in … }', which makes only those; \
      to look at bindings, 'bindings.filter { … }'
      """
  )
  public func keys<T>(
    for type: T.Type = T.self, tag: (any Hashable & Sendable)? = nil,
    where predicate: (BindingInfo) -> Bool = { _ in true }
  ) -> [Key<T>] {
    let tag = BindingTag(optional: tag)
    var ordinary: [BindingKey: AnyBinding] = [:]
    for container in chain {
      let entry = container.table.entry(for: ObjectIdentifier(T.self))
      for binding in (entry?.untagged.map { [$0] } ?? []) + Array(entry?.tagged ?? [])
      where ordinary[binding.key] == nil {
        ordinary[binding.key] = binding
      }
    }
    let sorted = ordinary.values.sorted { $0.key.sortKey < $1.key.sortKey }
    let contributed = contributions(to: T.self) { _ in true }.map(\.binding)
    var found: [Key<T>] = []
    for binding in sorted + contributed
    where (tag == nil || binding.key.tag == tag) && predicate(binding.info) {
      found.append(Key(binding: binding.key, contributionIndex: binding.contributionIndex))
    }
    return found
  }

  /// The keys of the bindings of `type` whose metadata is a `Metadata` that `predicate` accepts.
  ///
  /// ```swift
  /// let spelling = container.keys(for: Plugin.self, metadata: PluginInfo.self) { $0.name == "spell" }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - metadata: The type of the metadata to look at.
  ///   - predicate: Decides from the metadata.
  /// - Returns: Typed keys, in the order of ``keys(for:tag:where:)``.
  @available(
    *, deprecated,
    message: """
      to choose contributions, 'resolveAll(T.self) { binding in … }', which makes only those; \
      to look at bindings, 'bindings.filter { … }'
      """
  )
  public func keys<T, Metadata>(
    for type: T.Type = T.self, metadata: Metadata.Type,
    where predicate: (Metadata) -> Bool
  ) -> [Key<T>] {
    keys(for: T.self) { info in (info.metadata as? Metadata).map(predicate) ?? false }
  }

  /// The instance of the binding `key` names, for a request in `parent`'s chain.
  @available(*, deprecated, message: "Key is deprecated")
  @usableFromInline
  func resolve<T>(
    _ key: Key<T>, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    if let index = key.contributionIndex {
      guard
        let (owner, contribution) = contributions(to: T.self, where: { _ in true })
          .first(where: { $0.binding.contributionIndex == index })
      else {
        throw .missing(key.binding, triedFallback: false, parent: parent, in: self)
      }
      return try owner.instance(of: contribution, as: T.self, parent: parent, fallbackTag: nil)
    }
    guard let tag = key.binding.tag else { return try resolve(T.self, parent: parent) }
    return try resolve(T.self, tag: tag, matching: .allowingFallback, parent: parent)
  }
}

extension Resolving where Self: ~Copyable {
  /// Returns the instance of the binding a typed key names: one made with ``Key/init(_:tag:)``,
  /// or one of those ``Container/keys(for:tag:where:)`` returns, a contribution among them.
  ///
  /// ```swift
  /// extension Key where Value == any Logger {
  ///   static let audit = Key(Logger.self, tag: "audit")
  /// }
  /// let logger = try container.resolve(.audit)
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  @available(*, deprecated, message: "use 'resolve(T.self, tag: tag)'")
  @inlinable
  public func resolve<T>(
    _ key: Key<T>, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T {
    try _requestPoint(for: T.self, isolation: isolation).run(T.self, tag: key.binding.tag) {
      container, context throws(ResolutionError) in
      try container.resolve(key, parent: context)
    }
  }
}

extension Diagnostic.Code {
  /// Two overrides replace the same key: now ``duplicateBinding``, whose message says
  /// "overridden".
  ///
  /// ```swift
  /// let duplicates = error.diagnostics.filter { $0.code == .duplicateBinding }
  /// ```
  @available(*, deprecated, renamed: "duplicateBinding")
  public static var duplicateOverride: Diagnostic.Code { .duplicateBinding }

  /// With exact tags required, a tagged dependency only the untagged binding serves: now
  /// ``missingDependency``, whose message names the fallback.
  ///
  /// ```swift
  /// let missing = error.diagnostics.filter { $0.code == .missingDependency }
  /// ```
  @available(*, deprecated, renamed: "missingDependency")
  public static var fallbackDependency: Diagnostic.Code { .missingDependency }
}

extension ResolutionError.Code {
  /// A ``Provider``, ``Lazy`` or ``ScopeFactory`` outlived its container: now ``shutDown``,
  /// whose message says the container no longer exists.
  ///
  /// ```swift
  /// if error.code == .shutDown { return }  // the container is gone
  /// ```
  @available(*, deprecated, renamed: "shutDown")
  public static var containerReleased: ResolutionError.Code { .shutDown }
}

extension DependencyGraph {
  /// A graph node: now the binding itself, a ``BindingInfo``.
  ///
  /// ```swift
  /// for binding in container.graph.nodes where !binding.isChecked { print(binding) }
  /// ```
  @available(*, deprecated, renamed: "BindingInfo", message: "a node is the BindingInfo")
  public typealias Node = BindingInfo
}

extension BindingInfo {
  /// The binding a graph node stood for: the node is the binding now.
  ///
  /// ```swift
  /// let keys = container.graph.nodes.map(\.key)
  /// ```
  @available(*, deprecated, message: "a graph node is the BindingInfo: drop '.binding'")
  public var binding: BindingInfo { self }
}

extension Diagnostic {
  /// Whether a finding fails the build.
  ///
  /// ```swift
  /// let warnings = error.diagnostics.filter { !$0.isError }
  /// ```
  @available(*, deprecated, message: "use 'diagnostic.isError'")
  public struct Severity: Hashable, Sendable, CustomStringConvertible {
    let isError: Bool
    /// Fails the build.
    @available(*, deprecated, message: "use 'diagnostic.isError'")
    public static let error = Severity(isError: true)
    /// Kept in ``Container/warnings``.
    @available(*, deprecated, message: "use '!diagnostic.isError'")
    public static let warning = Severity(isError: false)
    /// `error` or `warning`.
    @available(*, deprecated, message: "use 'diagnostic.isError'")
    public var description: String { isError ? "error" : "warning" }
  }

  /// Error or warning.
  ///
  /// ```swift
  /// if diagnostic.isError { … }
  /// ```
  @available(*, deprecated, message: "use 'diagnostic.isError' (a warning is '!isError')")
  public var severity: Severity { Severity(isError: isError) }
}

extension BuildError {
  /// The findings that failed the build.
  ///
  /// ```swift
  /// let errors = error.diagnostics.filter(\.isError)
  /// ```
  @available(*, deprecated, message: "use 'diagnostics.filter(\\.isError)'")
  public var errors: [Diagnostic] { diagnostics.filter(\.isError) }
}

extension Container {
  /// Resets every cache group, as ``reset(_:)`` does each.
  ///
  /// ```swift
  /// container.reset(.session)
  /// container.reset(.default)
  /// ```
  @available(
    *, deprecated,
    message: "reset each group by name, 'container.reset(.session)': a group is what one event ends"
  )
  public func resetAllCaches() {
    for group in cacheGroups.keys { reset(group) }
  }
}

/// The properties of one type that a container fills in an existing instance, for objects whose
/// initializer you do not control (view controllers made by a storyboard, framework callbacks).
///
/// Declare them in an assembly with ``Registrar/injectProperties(of:fileID:line:_:)``, then call
/// ``Container/inject(into:isolation:)``:
///
/// ```swift
/// registrar.injectProperties(of: LegacyScreen.self) { properties in
///   properties.inject(\.feed)
///   properties.inject(\.log, tag: "audit")
/// }
///
/// let screen = LegacyScreen()      // made by a framework
/// try container.inject(into: screen)
/// ```
///
/// `build()` checks that every injected property's type (and tag) is bound.
@available(
  *, deprecated,
  message: """
    fill the object in one resolution: 'container.inject(into: object) { resolver, object in \
    object.feed = try resolver.resolve() }'
    """
)
public struct PropertyInjections<Root: AnyObject> {
  var setters: [@Sendable (Root, Container) throws -> Void] = []
  var keys: [DeclaredDependency] = []

  /// Injects the binding of the property's type into `property`: untagged, or with `tag`
  /// (falling back to untagged).
  ///
  /// ```swift
  /// properties.inject(\.feed)
  /// properties.inject(\.log, tag: "audit")
  /// ```
  ///
  /// - Parameters:
  ///   - property: A writable property of `Root`.
  ///   - tag: The binding's tag, if it has one.
  @available(*, deprecated, message: "use container.inject(into:_:)")
  public mutating func inject<Value>(
    _ property: any ReferenceWritableKeyPath<Root, Value> & Sendable,
    tag: (any Hashable & Sendable)? = nil
  ) {
    let tag = BindingTag(optional: tag)
    keys.append(
      DeclaredDependency(key: BindingKey(Value.self, boxed: tag), matching: .allowingFallback))
    let path = property
    setters.append { root, container in
      root[keyPath: path] = try container.resolve(Value.self, tag: tag)
    }
  }
}

@available(*, deprecated, message: "use container.inject(into:_:)")
extension PropertyInjections {
  /// Injects the binding of `Value` into an optional property (such as `var feed: Feed?` or
  /// `var feed: Feed!`): untagged, or with `tag` (falling back to untagged).
  ///
  /// ```swift
  /// properties.inject(\.feed)  // var feed: Feed!
  /// properties.inject(\.log, tag: "audit")  // var log: Logger?
  /// ```
  ///
  /// - Parameters:
  ///   - property: A writable optional property of `Root`.
  ///   - tag: The binding's tag, if it has one.
  @available(*, deprecated, message: "use container.inject(into:_:)")
  public mutating func inject<Value>(
    _ property: any ReferenceWritableKeyPath<Root, Value?> & Sendable,
    tag: (any Hashable & Sendable)? = nil
  ) {
    let tag = BindingTag(optional: tag)
    keys.append(
      DeclaredDependency(key: BindingKey(Value.self, boxed: tag), matching: .allowingFallback))
    let path = property
    setters.append { root, container in
      root[keyPath: path] = try container.resolve(Value.self, tag: tag)
    }
  }
}

extension Registrar {
  /// Declares which properties of `type` ``Container/inject(into:isolation:)`` fills.
  ///
  /// ```swift
  /// registrar.injectProperties(of: LegacyScreen.self) { properties in
  ///   properties.inject(\.feed)
  ///   properties.inject(\.log, tag: "audit")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The class whose instances get their properties filled.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - declare: Lists the injected properties.
  @available(
    *, deprecated,
    message: """
      fill the object in one resolution: 'container.inject(into: object) { resolver, object in \
      object.feed = try resolver.resolve() }'
      """
  )
  public mutating func injectProperties<Root: AnyObject>(
    of type: Root.Type, fileID: StaticString = #fileID, line: UInt = #line,
    _ declare: (inout PropertyInjections<Root>) -> Void
  ) {
    var injections = PropertyInjections<Root>()
    declare(&injections)
    collector.injectors.append(
      PropertyInjector(
        injections, location: BindingLocation(file: fileID, line: line),
        registerType: registerType))
  }
}

extension Container {
  /// Fills the declared properties of an existing instance.
  ///
  /// ```swift
  /// let screen = LegacyScreen()
  /// try container.inject(into: screen)
  /// ```
  ///
  /// The properties are filled in one resolution, as the parameters of one resolve are: they
  /// share their `graph` instances, and main-actor bindings are made when the caller is
  /// isolated to the main actor.
  ///
  /// - Parameters:
  ///   - object: An instance of a type declared with
  ///     ``Registrar/injectProperties(of:fileID:line:_:)``.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): main-actor bindings
  ///     may be made when it is the main actor.
  /// - Throws: ``ResolutionError`` with ``ResolutionError/Code/missingBinding`` when nothing was
  ///   declared for the type, or the error of a property that could not be resolved.
  @available(
    *, deprecated,
    message: """
      fill the object in one resolution: 'container.inject(into: object) { resolver, object in \
      object.feed = try resolver.resolve() }'
      """
  )
  public func inject<Root: AnyObject>(
    into object: Root, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) {
    var owner: Container? = self
    while let container = owner, container.injectors[ObjectIdentifier(Root.self)] == nil {
      owner = container.parentContainer
    }
    if let owner, owner !== self { return try owner.inject(into: object) }
    guard let injector = injectors[ObjectIdentifier(Root.self)] else {
      throw .missing(
        BindingKey(PropertyInjections<Root>.self), triedFallback: false, parent: .topLevel, in: self
      )
    }
    try checkOpen(Root.self)
    // The setters' requests join the resolution `withResolver` runs on this thread.
    try ResolutionContext.withResolver(in: self, isolation: isolation) {
      _ throws(ResolutionError) in
      do {
        try injector.inject(object, self)
      } catch let error as ResolutionError {
        throw error
      } catch {
        preconditionFailure("property injection throws only ResolutionError: \(error)")
      }
    }
  }
}

extension BindingLocation {
  /// Creates a location; the defaults capture the caller's file and line.
  ///
  /// ```swift
  /// registrar.bind(Clock.self, fileID: fileID, line: line) { SystemClock() }  // in a helper
  /// ```
  ///
  /// - Parameters:
  ///   - fileID: A `#fileID` value.
  ///   - line: A `#line` value.
  @available(
    *, deprecated,
    message:
      "a location is captured by 'bind': compare a binding's 'location.fileID' and 'location.line', and pass 'fileID:' and 'line:' on to 'bind' from a helper"
  )
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    self.init(file: fileID, line: line)
  }

  /// Whether the left location sorts before the right one: by file, then line.
  ///
  /// ```swift
  /// let sorted = locations.sorted { ($0.fileID, $0.line) < ($1.fileID, $1.line) }
  /// ```
  @available(
    *, deprecated,
    message: "compare '(location.fileID, location.line)' tuples, which is the same order"
  )
  public static func < (lhs: BindingLocation, rhs: BindingLocation) -> Bool {
    lhs.isBefore(rhs)
  }
}

extension BindingTag {
  /// The wrapped value.
  ///
  /// ```swift
  /// let isEU = binding.key.tag == BindingTag(Region.eu)
  /// ```
  @available(
    *, deprecated,
    message:
      "compare tags instead: 'binding.key.tag == BindingTag(Region.eu)' (tags compare by value)"
  )
  public var base: any Hashable & Sendable { box.base }
}

extension TagMatching {
  /// The option's name, `exact` or `allowingFallback`.
  ///
  /// ```swift
  /// let isExact = matching == .exact
  /// ```
  @available(*, deprecated, message: "compare with '.exact' or '.allowingFallback'")
  public var description: String { allowsFallback ? "allowingFallback" : "exact" }
}

extension Scope {
  /// Whether ``close()`` was called.
  ///
  /// ```swift
  /// try await scope.close()  // again: does nothing
  /// ```
  @available(
    *, deprecated,
    message:
      "call 'close()' again if unsure (it does nothing the second time); a closed scope's resolves throw 'shutDown'"
  )
  public var isClosed: Bool { disposals.isClosed }
}

extension DisposalError.Failure {
  /// Where the binding whose disposer threw was declared.
  ///
  /// ```swift
  /// let location = container.bindings.first { $0.key == failure.key }?.location
  /// ```
  @available(
    *, deprecated,
    message:
      "the failure's description names it; 'container.bindings.first { $0.key == failure.key }?.location' finds it"
  )
  public var location: BindingLocation { declaredAt }
}

extension BindingInfo {
  /// For a contribution to a multi-binding, its place among the contributions; `nil` for an
  /// ordinary binding.
  ///
  /// ```swift
  /// let plugins = try container.resolveAll(Plugin.self)  // in contribution order
  /// ```
  @available(
    *, deprecated,
    message:
      "'resolveAll' returns contributions in their order (assembly order, then registration order), and 'description' shows the place"
  )
  public var contributionIndex: Int? { contribution }
}
