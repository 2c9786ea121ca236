extension Container {
  /// Returns the instance bound to `type`, built as its lifetime says.
  ///
  /// ```swift
  /// let feed = try container.resolve(FeedService.self)
  /// let client: any HTTPClient = try container.resolve()
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from context when omitted.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError`` naming the type, the path, and near misses when nothing is
  ///   bound, when a factory throws, or on a cycle.
  @inlinable
  public func resolve<T>(_ type: T.Type = T.self, isolation: isolated (any Actor)? = #isolation)
    throws(ResolutionError) -> T
  {
    try checkOpen(T.self)
    return try resolve(T.self, parent: .topLevel(isolation))
  }

  /// Returns the instance bound to `type` under `tag`, falling back to the untagged binding
  /// unless `matching` is ``TagMatching/exact``.
  ///
  /// A fallback returns the very instance an untagged request gets: identity belongs to the
  /// binding, not to the tag you asked with.
  ///
  /// ```swift
  /// let audit = try container.resolve(Logger.self, tag: "audit")
  /// let strict = try container.resolve(Logger.self, tag: "audit", matching: .exact)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag: any hashable, sendable value.
  ///   - matching: Whether the untagged binding may serve the request.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``; for a missing binding it says which fallback it tried.
  @inlinable
  public func resolve<T>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T {
    try checkOpen(T.self)
    return try resolve(T.self, tag: tag, matching: matching, parent: .topLevel(isolation))
  }

  /// Returns a new instance from a binding that takes runtime arguments.
  ///
  /// The argument types must match the bound factory's parameter types exactly, in order.
  ///
  /// ```swift
  /// registrar.bind(Download.self) { (resolver, url: URL, retries: Int) in
  ///   Download(url: url, retries: retries, client: try resolver.resolve())
  /// }
  /// let download = try container.resolve(Download.self, arguments: url, 3)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - arguments: The runtime arguments, of any number and types.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: A new instance.
  /// - Throws: ``ResolutionError`` with code ``ResolutionError/Code/argumentMismatch`` naming the
  ///   expected and given types when they differ.
  @inlinable
  public func resolve<T, each Argument>(
    _ type: T.Type = T.self, arguments: repeat each Argument,
    isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T {
    try checkOpen(T.self)
    return try resolve(
      T.self, tag: nil as BindingTag?, matching: .allowingFallback,
      arguments: repeat each arguments, parent: .topLevel(isolation))
  }

  /// Returns a new instance from a tagged binding that takes runtime arguments.
  ///
  /// ```swift
  /// let download = try container.resolve(Download.self, tag: "background", arguments: url, 3)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag.
  ///   - matching: Whether the untagged binding may serve the request.
  ///   - arguments: The runtime arguments.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): a main-actor binding
  ///     may be made when it is the main actor.
  /// - Returns: A new instance.
  /// - Throws: ``ResolutionError``.
  @inlinable
  public func resolve<T, each Argument>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback, arguments: repeat each Argument,
    isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T {
    try checkOpen(T.self)
    return try resolve(
      T.self, tag: tag, matching: matching, arguments: repeat each arguments,
      parent: .topLevel(isolation))
  }

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
  @inlinable
  public func resolveIfBound<T>(
    _ type: T.Type = T.self, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T? {
    try checkOpen(T.self)
    return try resolveIfBound(T.self, parent: .topLevel(isolation))
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
  @inlinable
  public func resolveIfBound<T>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T? {
    try checkOpen(T.self)
    return try resolveIfBound(T.self, tag: tag, matching: matching, parent: .topLevel(isolation))
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
  public func resolveIfBound<T, First, each Argument>(
    _ type: T.Type = T.self, arguments first: First, _ rest: repeat each Argument,
    isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) -> T? {
    try checkOpen(T.self)
    let signature = BindingKey(T.self, argumentTypes: (First, repeat each Argument).self)
    guard binds(signature) else { return nil }
    return try resolve(T.self, arguments: first, repeat each rest, isolation: isolation)
  }
}
