/// What a factory uses to resolve its own dependencies.
///
/// A resolver is lent to a factory for the duration of the call: it cannot be copied or kept,
/// which is what lets Joinery track each resolution chain (for cycle detection and error paths)
/// without allocating. To resolve later, keep the ``Container`` instead, weakly if the instance
/// lives inside it.
///
/// ```swift
/// registrar.bind(FeedService.self, lifetime: .persistent) { resolver in
///   FeedService(
///     client: try resolver.resolve(),
///     cache: try resolver.resolve(Cache.self, tag: "disk"))
/// }
/// ```
///
/// > Important: Resolve dependencies through the resolver, not through a container captured in
/// > the factory: only the resolver carries the chain, so only it can name the path in an error
/// > and detect a cycle before it recurses.
public struct Resolver: ~Copyable {
  /// Not retained: the container outlives every factory call it lends a resolver to.
  ///
  /// Used through `withContainer` so that a resolve does not touch the container's reference count,
  /// which threads resolving at once would otherwise contend for.
  @usableFromInline let containerReference: _Unretained<Container>
  /// The chain of the factory this resolver is lent to.
  @usableFromInline let context: ResolutionContext

  /// Returns the instance bound to `type`.
  ///
  /// ```swift
  /// let client = try resolver.resolve(HTTPClient.self)
  /// ```
  ///
  /// - Parameter type: The type to resolve; inferred from context when omitted.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError`` with the path through this factory.
  @inlinable
  public func resolve<T>(_ type: T.Type = T.self) throws(ResolutionError) -> T {
    try withContainer { container throws(ResolutionError) in
      try container.resolve(T.self, parent: context)
    }
  }

  /// Returns the instance bound to `type` under `tag`, falling back to the untagged binding
  /// unless `matching` is ``TagMatching/exact``.
  ///
  /// ```swift
  /// let cache = try resolver.resolve(Cache.self, tag: "disk")
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag.
  ///   - matching: Whether the untagged binding may serve the request.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  @inlinable
  public func resolve<T>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback
  ) throws(ResolutionError) -> T {
    try withContainer { container throws(ResolutionError) in
      try container.resolve(T.self, tag: tag, matching: matching, parent: context)
    }
  }

  /// Returns a new instance from a binding that takes runtime arguments.
  ///
  /// ```swift
  /// let download = try resolver.resolve(Download.self, arguments: url, 3)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - arguments: The runtime arguments.
  /// - Returns: A new instance.
  /// - Throws: ``ResolutionError``.
  @inlinable
  public func resolve<T, each Argument>(
    _ type: T.Type = T.self, arguments: repeat each Argument
  ) throws(ResolutionError) -> T {
    try withContainer { container throws(ResolutionError) in
      try container.resolve(
        T.self, tag: nil as BindingTag?, matching: .allowingFallback,
        arguments: repeat each arguments,
        parent: context)
    }
  }

  /// Returns a new instance from a tagged binding that takes runtime arguments.
  ///
  /// ```swift
  /// let download = try resolver.resolve(Download.self, tag: "background", arguments: url, 3)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag.
  ///   - matching: Whether the untagged binding may serve the request.
  ///   - arguments: The runtime arguments.
  /// - Returns: A new instance.
  /// - Throws: ``ResolutionError``.
  @inlinable
  public func resolve<T, each Argument>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback, arguments: repeat each Argument
  ) throws(ResolutionError) -> T {
    try withContainer { container throws(ResolutionError) in
      try container.resolve(
        T.self, tag: tag, matching: matching, arguments: repeat each arguments,
        parent: context)
    }
  }

  /// Returns the instance bound to `type`, or `nil` when nothing is bound to it.
  ///
  /// ```swift
  /// let tracker = try resolver.resolveIfBound(Tracker.self)
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance, or `nil`.
  /// - Throws: ``ResolutionError`` when a binding exists but fails.
  @inlinable
  public func resolveIfBound<T>(_ type: T.Type = T.self) throws(ResolutionError) -> T? {
    try withContainer { container throws(ResolutionError) in
      try container.resolveIfBound(T.self, parent: context)
    }
  }

  /// Returns the instance bound to `type` under `tag` (or, unless exact, untagged), or `nil`.
  ///
  /// ```swift
  /// let audit = try resolver.resolveIfBound(Logger.self, tag: "audit")
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag.
  ///   - matching: Whether the untagged binding may serve the request.
  /// - Returns: The instance, or `nil`.
  /// - Throws: ``ResolutionError`` when a binding exists but fails.
  @inlinable
  public func resolveIfBound<T>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback
  ) throws(ResolutionError) -> T? {
    try withContainer { container throws(ResolutionError) in
      try container.resolveIfBound(T.self, tag: tag, matching: matching, parent: context)
    }
  }
}

extension Resolver {
  /// Returns one instance from every contribution to the multi-binding of `type`, in
  /// contribution order.
  ///
  /// ```swift
  /// registrar.bind(PluginHost.self) { resolver in
  ///   PluginHost(plugins: try resolver.resolveAll(Plugin.self))
  /// }
  /// ```
  ///
  /// - Parameter type: The element type.
  /// - Returns: The instances; empty when nothing contributes.
  /// - Throws: ``ResolutionError`` from the first contribution that fails.
  public func resolveAll<T>(_ type: T.Type = T.self) throws(ResolutionError) -> [T] {
    try withContainer { container throws(ResolutionError) in
      try container.resolveAll(T.self, tag: nil, parent: context)
    }
  }
}

extension Resolver {
  init(container: Container, context: consuming ResolutionContext) {
    containerReference = _Unretained(container)
    self.context = context
  }

  /// The container that lent this resolver, without retaining it.
  @inlinable @inline(__always)
  func withContainer<R>(
    _ body: (Container) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try containerReference.with(body)
  }
}

@available(*, unavailable, message: "A Resolver is lent to one factory call on one thread.")
extension Resolver: Sendable {}
