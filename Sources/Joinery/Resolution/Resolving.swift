public import JoineryEngine

/// What resolves dependencies: a ``Container``, a ``Scope``, the ``Resolver`` a factory is lent
/// and the ``AsyncResolver`` an async factory is given.
///
/// Every resolve form, synchronous and asynchronous, is declared once, here, so each exists on
/// all four with the same labels and defaults. The forms are inlinable and specialized for the receiver at the call site:
/// calling one costs what a method of the receiver itself would.
///
/// ```swift
/// let feed = try container.resolve(FeedService.self)        // the container
/// let order = try scope.resolve(Order.self, tag: "draft")   // a request's scope
/// registrar.bind(Checkout.self) { resolver in                // a factory's resolver
///   Checkout(plugins: try resolver.resolveAll(Plugin.self))
/// }
/// registrar.bindAsync(Report.self) { resolver in             // an async factory's
///   Report(rows: try await resolver.resolveAsync(Database.self).rows())
/// }
/// ```
///
/// The asynchronous forms cannot be called from a synchronous factory: its ``Resolver`` is lent
/// to a synchronous closure.
///
/// Only Joinery's receivers conform: the requirements are the engine's.
public protocol Resolving: ~Copyable {
  /// Where a request for `type` enters the engine: the receiver's container, and the chain
  /// the request starts or continues. Throws when the receiver is closed, if `checkingOpen`
  /// (``hasInstance(of:tag:)`` answers for a closed receiver too).
  func _requestPoint<T>(
    for type: T.Type, isolation: (any Actor)?, checkingOpen: Bool
  ) throws(ResolutionError) -> _RequestPoint
}

extension Resolving where Self: ~Copyable {
  /// Returns the instance bound to `type` (under `tag`, if given), built as its lifetime says;
  /// with `arguments`, a new instance from the binding that takes them.
  ///
  /// A tagged request falls back to the untagged binding unless `matching` is
  /// ``TagMatching/exact``, and a fallback returns the very instance an untagged request gets:
  /// identity belongs to the binding, not to the tag you asked with.
  ///
  /// ```swift
  /// let feed = try container.resolve(FeedService.self)
  /// let client: any HTTPClient = try container.resolve()
  /// let audit = try container.resolve(Logger.self, tag: "audit")
  /// let strict = try container.resolve(Logger.self, tag: "audit", matching: .exact)
  /// ```
  ///
  /// A binding with runtime arguments is resolved with arguments of its types, in order, any
  /// number of them:
  ///
  /// ```swift
  /// registrar.bind(Download.self) { (resolver, url: URL, retries: Int) in
  ///   Download(url: url, retries: retries, client: try resolver.resolve())
  /// }
  /// let download = try container.resolve(Download.self, arguments: url, 3)
  /// let background = try container.resolve(Download.self, tag: "background", arguments: url, 3)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from context when omitted.
  ///   - tag: The tag: any hashable, sendable value; untagged when omitted. An optional
  ///     stands for its value, and `nil` for no tag.
  ///   - matching: Whether the untagged binding may serve a tagged request.
  ///   - arguments: The runtime arguments of a binding that takes them; none for any other.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError`` naming the type, the path, and near misses when nothing is
  ///   bound (and which fallback it tried), when a factory throws, or on a cycle;
  ///   ``ResolutionError/Code/argumentMismatch`` naming the expected and given types when the
  ///   arguments differ from the bound ones.
  @inlinable @inline(__always)
  public func resolve<T, each Argument>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable = nil as BindingTag?,
    matching: TagMatching = .allowingFallback, arguments: repeat each Argument,
    isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T {
    // Folds away where the call is specialized: a request without arguments takes a path that
    // never touches the (empty) pack. Written out rather than in a helper: a debug build does
    // not inline, and a frame more per level shortens the deepest chain a stack holds.
    let point = try _requestPoint(for: T.self, isolation: isolation, checkingOpen: true)
    if _isEmpty(repeat (each Argument).self) {
      return try point.run(T.self, tag: tag) { container, context throws(ResolutionError) in
        try container.resolve(T.self, tag: tag, matching: matching, parent: context)
      }
    }
    return try point.run(T.self, tag: tag) { container, context throws(ResolutionError) in
      try container.resolve(
        T.self, requestTag: tag, matching: matching, arguments: repeat each arguments,
        parent: context)
    }
  }

  /// Returns one instance from every contribution to the multi-binding of `type` (with
  /// `tag`, if given) that `predicate` accepts, in the order the contributions were declared
  /// (a parent container's first); with `arguments`, from every contribution that takes
  /// runtime arguments of exactly their types, each made with them.
  ///
  /// ```swift
  /// for plugin in try container.resolveAll(Plugin.self) { plugin.start() }
  /// let checks = try container.resolveAll(HealthCheck.self, tag: "startup")
  /// // Only the contributions whose metadata says so; the others are not made.
  /// let enabled = try container.resolveAll(Plugin.self) { contribution in
  ///   (contribution.metadata as? PluginInfo)?.isEnabled == true
  /// }
  /// // Contributions that take runtime arguments.
  /// registrar.contribute(Exporter.self) { (_, report: Report) in CSVExporter(report) }
  /// let exporters = try container.resolveAll(Exporter.self, arguments: report)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type.
  ///   - tag: The tag the contributions were made with; the untagged ones when omitted.
  ///   - arguments: The runtime arguments of the contributions that take them; none for the
  ///     contributions that take none.
  ///   - predicate: Chooses contributions by their ``BindingInfo`` (the `metadata:` they were
  ///     declared with, their register, their location) before any is made; every
  ///     contribution when omitted.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instances; empty when nothing contributes.
  /// - Throws: ``ResolutionError`` from the first contribution that fails.
  @inlinable @inline(__always)
  public func resolveAll<T, each Argument>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable = nil as BindingTag?,
    arguments: repeat each Argument, where predicate: ((BindingInfo) -> Bool)? = nil,
    isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> [T] {
    let point = try _requestPoint(for: T.self, isolation: isolation, checkingOpen: true)
    if _isEmpty(repeat (each Argument).self) {
      return try point.run(T.self, tag: tag) { container, context throws(ResolutionError) in
        try container.resolveAll(T.self, tag: _requestTag(tag), where: predicate, parent: context)
      }
    }
    let values = (repeat each arguments)
    return try point.run(T.self, tag: tag) { container, context throws(ResolutionError) in
      try _Arguments.with(values) { arguments throws(ResolutionError) in
        try container.resolveAll(
          T.self, tag: _requestTag(tag), signature: (repeat each Argument).self,
          arguments: arguments, where: predicate, parent: context)
      }
    }
  }
}

extension Resolving where Self: ~Copyable {
  /// Resolves a binding that may be asynchronous: an async binding is awaited (made once for
  /// its lifetime however many tasks await it), a synchronous one resolves as
  /// `resolve(_:tag:matching:arguments:isolation:)` does, falling back from a tag to the
  /// untagged binding in the same way, and a main-actor one is made on the main actor.
  ///
  /// In a scope, a `scoped` async binding gives that scope's instance; from an async factory's
  /// resolver, the request continues the factory's resolution (its path, cycles, depth).
  ///
  /// ```swift
  /// let database = try await container.resolveAsync(Database.self)
  /// let replica = try await container.resolveAsync(Database.self, tag: Replica.read)
  /// let connection = try await scope.resolveAsync(Connection.self)
  /// registrar.bindAsync(Repository.self) { resolver in
  ///   Repository(database: try await resolver.resolveAsync(Database.self))
  /// }
  /// ```
  ///
  /// A binding with runtime arguments is resolved with arguments of its types, in order:
  ///
  /// ```swift
  /// registrar.bindAsync(Thumbnail.self) { (resolver, url: URL, size: Int) in
  ///   try await Thumbnail.render(url, size: size)
  /// }
  /// let thumbnail = try await container.resolveAsync(Thumbnail.self, arguments: url, 128)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from context when omitted.
  ///   - tag: The tag: any hashable, sendable value; untagged when omitted.
  ///   - matching: Whether the untagged binding may serve a tagged request.
  ///   - arguments: The runtime arguments of a binding that takes them; none for any other.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``; a factory's error carries the asynchronous path;
  ///   ``ResolutionError/Code/argumentMismatch`` when the arguments differ from the bound ones.
  @inlinable @inline(__always)
  public func resolveAsync<T: Sendable, each Argument: Sendable>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable = nil as BindingTag?,
    matching: TagMatching = .allowingFallback, arguments: repeat each Argument
  ) async throws(ResolutionError) -> T {
    let point = try _requestPoint(for: T.self, isolation: nil, checkingOpen: true)
    let tag = point.retainedContainer.requestTag(tag, for: T.self)
    guard _isEmpty(repeat (each Argument).self) else {
      return try await point.retainedContainer.resolveAsync(
        T.self, tag: tag, matching: matching, arguments: (repeat each arguments),
        path: point.path, scope: point.requestScope)
    }
    // A built persistent instance, sync or async, is read in place: no task, no suspension,
    // no task-local read.
    if tag == nil, let built = point.builtInstance(T.self) { return built }
    return try await point.retainedContainer.resolveAsync(
      T.self, tag: tag, matching: tag == nil ? .exact : matching, path: point.path,
      scope: point.requestScope)
  }

  /// Every contribution to the multi-binding of `type` (with `tag`, if given) that
  /// `predicate` accepts, awaiting the async ones, in the order
  /// ``resolveAll(_:tag:arguments:where:isolation:)`` gives.
  ///
  /// ```swift
  /// let migrations = try await container.resolveAllAsync(Migration.self)
  /// let checks = try await container.resolveAllAsync(HealthCheck.self, tag: "startup")
  /// let core = try await container.resolveAllAsync(Migration.self) { $0.registerType == CoreAssembly.self }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type.
  ///   - tag: The tag the contributions were made with; the untagged ones when omitted.
  ///   - predicate: Chooses contributions by their ``BindingInfo`` before any is made; every
  ///     contribution when omitted. It is `@Sendable`: it runs where the request does, off the
  ///     caller's actor, so it captures values (`let wanted = self.wanted`), not actor state.
  /// - Returns: The instances; empty when nothing contributes.
  /// - Throws: ``ResolutionError`` from the first contribution that fails.
  @inlinable
  public func resolveAllAsync<T: Sendable>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable = nil as BindingTag?,
    where predicate: (@Sendable (BindingInfo) -> Bool)? = nil
  ) async throws(ResolutionError) -> [T] {
    let point = try _requestPoint(for: T.self, isolation: nil, checkingOpen: true)
    return try await point.retainedContainer.resolveAllAsync(
      T.self, tag: _requestTag(tag), where: predicate, path: point.path,
      scope: point.requestScope)
  }
}

extension Resolving where Self: ~Copyable {
  /// Whether the instance a resolve of `type` from here would share has been made, without
  /// making it.
  ///
  /// That is a persistent or cached instance (until a reset drops it), a transient one someone
  /// still holds, and, in a scope, the scope's scoped instance (made by a resolve, or provided
  /// when the scope was made). Ephemeral and graph bindings never have one.
  ///
  /// ```swift
  /// if container.hasInstance(of: ConnectionPool.self) { … }  // made yet?
  /// if scope.hasInstance(of: UnitOfWork.self) {              // did the request use one?
  ///   try await scope.resolve(UnitOfWork.self).commit()
  /// }
  /// ```
  ///
  /// The tag names one binding exactly (no fallback). Closing a scope or shutting the container
  /// down does not change the answer: a request that made a unit of work is seen to have made
  /// one, so the commit that follows fails with ``ResolutionError/Code/shutDown`` instead of
  /// being skipped.
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: The binding's tag, if it has one.
  /// - Returns: `true` if the instance exists.
  public func hasInstance<T>(of type: T.Type, tag: (any Hashable & Sendable)? = nil) -> Bool {
    // Not checking openness: what was made stays made after shutdown begins.
    guard let point = try? _requestPoint(for: T.self, isolation: nil, checkingOpen: false) else {
      return false
    }
    return point.retainedContainer.hasInstance(
      for: BindingKey(T.self, tag: tag), in: point.context.scope)
  }
}

extension Container: Resolving {
  /// The container's entry: a top-level request, made by a caller isolated to `isolation`.
  @inlinable @inline(__always)
  public func _requestPoint<T>(
    for _: T.Type, isolation: (any Actor)?, checkingOpen: Bool
  ) throws(ResolutionError) -> _RequestPoint {
    if checkingOpen { try checkOpen(T.self) }
    return _RequestPoint(container: self, scope: nil, isolation: isolation)
  }

}

extension Scope: Resolving {
  /// The scope's entry: a top-level request made in this scope.
  @inlinable @inline(__always)
  public func _requestPoint<T>(
    for _: T.Type, isolation: (any Actor)?, checkingOpen: Bool
  ) throws(ResolutionError) -> _RequestPoint {
    if checkingOpen { try checkOpen(T.self) }
    return _RequestPoint(container: container, scope: self, isolation: isolation)
  }

}

extension Resolver: Resolving {
  /// The resolver's entry: a request in the chain of the factory it is lent to.
  @inlinable @inline(__always)
  public func _requestPoint<T>(
    for _: T.Type, isolation _: (any Actor)?, checkingOpen _: Bool
  ) throws(ResolutionError) -> _RequestPoint {
    _RequestPoint(frame.container, continuing: context)
  }

}

extension AsyncResolver: Resolving {
  /// The async resolver's entry: a request below the async factory's chain, in its scope.
  @inlinable @inline(__always)
  public func _requestPoint<T>(
    for _: T.Type, isolation: (any Actor)?, checkingOpen _: Bool
  ) throws(ResolutionError) -> _RequestPoint {
    _RequestPoint(container: container, scope: path?.requestScope, isolation: isolation, path: path)
  }

}

/// Whether a request passes no runtime arguments.
@inlinable @inline(__always)
func _isEmpty<each Argument>(_: repeat (each Argument).Type) -> Bool {
  for _ in repeat (each Argument).self { return false }
  return true
}

/// How a tagged request may be served.
///
/// The default, ``allowingFallback``, serves a tagged request from the untagged binding of the
/// same type when no binding carries the tag, and returns the very instance an untagged request
/// gets. ``exact`` refuses that fallback.
///
/// ```swift
/// // Only a binding tagged "audit" will do:
/// let logger = try container.resolve(Logger.self, tag: "audit", matching: .exact)
/// ```
public struct TagMatching: Hashable, Sendable {
  @usableFromInline let allowsFallback: Bool

  @inlinable init(allowsFallback: Bool) { self.allowsFallback = allowsFallback }

  /// Use the tagged binding if there is one, else the untagged binding of the same type.
  @inlinable public static var allowingFallback: TagMatching { TagMatching(allowsFallback: true) }

  /// Use only a binding with exactly this tag.
  @inlinable public static var exact: TagMatching { TagMatching(allowsFallback: false) }
}
