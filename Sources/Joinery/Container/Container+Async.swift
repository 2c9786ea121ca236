extension Container {
  /// Resolves a binding that may be asynchronous: an async binding is awaited, a synchronous
  /// one resolves as `resolve(_:)` does.
  ///
  /// ```swift
  /// let database = try await container.resolveAsync(Database.self)
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``; a factory's error carries the asynchronous path.
  @inlinable @inline(__always)
  public func resolveAsync<T: Sendable>(_ type: T.Type = T.self) async throws(ResolutionError) -> T
  {
    try checkOpen(T.self)
    // A built persistent instance, sync or async, is read in place: no task, no suspension.
    if let built = builtInstance(T.self) { return built }
    return try await resolveAsync(T.self, tag: nil, matching: .exact, path: nil)
  }

  /// Resolves a tagged binding that may be asynchronous, falling back to the untagged one as
  /// `resolve(_:tag:matching:)` does.
  ///
  /// ```swift
  /// let replica = try await container.resolveAsync(Database.self, tag: Replica.read)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag: any hashable, sendable value.
  ///   - matching: Whether the untagged binding may serve the request.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``; a factory's error carries the asynchronous path.
  public func resolveAsync<T: Sendable>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback
  ) async throws(ResolutionError) -> T {
    try checkOpen(T.self)
    return try await resolveAsync(T.self, tag: BindingTag(tag), matching: matching, path: nil)
  }

  /// Every contribution to the multi-binding of `type`, awaiting the async ones, in the order
  /// ``resolveAll(_:)`` gives (the root's first, then each child's; assembly order, then
  /// registration order).
  ///
  /// ```swift
  /// let migrations = try await container.resolveAllAsync(Migration.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type.
  ///   - tag: Only the contributions with this tag; the untagged ones when `nil`.
  /// - Returns: The instances.
  /// - Throws: ``ResolutionError`` from the first contribution that fails.
  public func resolveAllAsync<T: Sendable>(
    _ type: T.Type = T.self, tag: (any Hashable & Sendable)? = nil
  ) async throws(ResolutionError) -> [T] {
    try checkOpen(T.self)
    var instances: [T] = []
    for (container, contribution) in contributions(to: T.self, tag: BindingTag(optional: tag)) {
      if let async = contribution as? AsyncBinding {
        // Made by a contribution of `T`.
        instances.append(try await container.awaitInstance(of: async, path: nil) as! T)
      } else {
        instances.append(
          try container.instance(of: contribution, as: T.self, parent: .topLevel, fallbackTag: nil))
      }
    }
    return instances
  }

  /// Returns a new instance from a binding that takes one runtime argument, awaiting it if its
  /// factory is `async`.
  ///
  /// Forms with two and three arguments follow.
  ///
  /// ```swift
  /// let thumbnail = try await container.resolveAsync(Thumbnail.self, arguments: url)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - a: The runtime argument, of the bound type.
  /// - Returns: A new instance.
  /// - Throws: ``ResolutionError``; ``ResolutionError/Code/argumentMismatch`` when the type
  ///   differs from the bound one.
  public func resolveAsync<T: Sendable, A: Sendable>(
    _ type: T.Type = T.self, arguments a: A
  ) async throws(ResolutionError) -> T {
    try await awaitArguments(T.self, signature: A.self, a) { () throws(ResolutionError) in
      try resolve(T.self, arguments: a)
    }
  }

  /// Returns a new instance from a binding that takes two runtime arguments.
  ///
  /// ```swift
  /// let thumbnail = try await container.resolveAsync(Thumbnail.self, arguments: url, 128)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - a: The first runtime argument.
  ///   - b: The second runtime argument.
  /// - Returns: A new instance.
  /// - Throws: ``ResolutionError``.
  public func resolveAsync<T: Sendable, A: Sendable, B: Sendable>(
    _ type: T.Type = T.self, arguments a: A, _ b: B
  ) async throws(ResolutionError) -> T {
    try await awaitArguments(T.self, signature: (A, B).self, (a, b)) {
      () throws(ResolutionError) in try resolve(T.self, arguments: a, b)
    }
  }

  /// Returns a new instance from a binding that takes three runtime arguments.
  ///
  /// ```swift
  /// let tile = try await container.resolveAsync(Tile.self, arguments: 3, 5, 12)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - a: The first runtime argument.
  ///   - b: The second runtime argument.
  ///   - c: The third runtime argument.
  /// - Returns: A new instance.
  /// - Throws: ``ResolutionError``.
  public func resolveAsync<T: Sendable, A: Sendable, B: Sendable, C: Sendable>(
    _ type: T.Type = T.self, arguments a: A, _ b: B, _ c: C
  ) async throws(ResolutionError) -> T {
    try await awaitArguments(T.self, signature: (A, B, C).self, (a, b, c)) {
      () throws(ResolutionError) in try resolve(T.self, arguments: a, b, c)
    }
  }

  /// Awaits the async binding of `T` for `signature`, or resolves a synchronous one (or
  /// reports what is missing) with `synchronously`.
  private func awaitArguments<T: Sendable>(
    _: T.Type, signature: Any.Type, _ arguments: any Sendable,
    synchronously: () throws(ResolutionError) -> T
  ) async throws(ResolutionError) -> T {
    try checkOpen(T.self)
    guard let (owner, binding) = argumentBinding(for: T.self, signature: signature),
      let async = binding as? AsyncBinding
    else { return try synchronously() }
    // Made by this binding's factory, which returns its bound type.
    return try await async.make(arguments: arguments, in: owner, path: nil) as! T
  }

  /// The asynchronous resolve behind every public form: finds the binding (tagged, then the
  /// untagged fallback, in this container or the nearest ancestor) and awaits it if it is
  /// async, directly or through a forward; a synchronous one resolves in place.
  ///
  /// `scope` is the ``Scope`` a top-level request was made in; below the top, `path` knows it.
  /// Generic only at its edges: the search and the wait are written once, for every type.
  @usableFromInline
  func resolveAsync<T: Sendable>(
    _ type: T.Type, tag: BindingTag?, matching: TagMatching, path: AsyncPath?,
    scope: Scope? = nil
  ) async throws(ResolutionError) -> T {
    // A request made while an async factory runs in this task joins its chain.
    let path = AsyncPath.joining(path)
    let scope = scope ?? path?.requestScope
    guard let (owner, binding) = asyncBinding(for: T.self, tag: tag, matching: matching) else {
      // Nothing async to await: the synchronous resolve serves it or reports what is missing.
      return try resolveSynchronously(
        T.self, tag: tag, matching: matching, scope: scope, path: path)
    }
    if let async = binding as? AsyncBinding {
      // Made by a binding of `T`; already made (built, or this scope's) without suspending.
      if let made = async.madeInstance(in: scope) { return made as! T }
      return try await owner.awaitInstance(of: async, path: path, scope: scope) as! T
    }
    let forward = binding as! ForwardingBinding
    let instance = try await (forward.ancestor ?? owner).awaitInstance(
      of: forward.target as! AsyncBinding, path: path, scope: scope)
    guard let converted = instance as? T else {
      throw ResolutionError(
        .forwardingTypeMismatch, requested: forward.key, path: path?.steps ?? [],
        binding: forward.info,
        detail: """
          The target made a \(TypeName.of(Swift.type(of: instance))), which is not a \
          \(forward.key.typeName).
          """,
        container: owner)
    }
    return converted
  }

  /// The binding that serves a request for `type` with its container, when it is async or
  /// forwards to an async one.
  private func asyncBinding(
    for type: Any.Type, tag: BindingTag?, matching: TagMatching
  ) -> (Container, AnyBinding)? {
    var key = BindingKey(type, boxed: tag)
    var owner = owner(of: key)
    if owner == nil, tag != nil, matching.allowsFallback {
      key = BindingKey(type)
      owner = self.owner(of: key)
    }
    guard let owner, let binding = owner.table.binding(for: key) else { return nil }
    if binding is AsyncBinding { return (owner, binding) }
    guard let forward = binding as? ForwardingBinding, forward.target is AsyncBinding else {
      return nil
    }
    return (owner, forward)
  }

  /// A synchronous resolve, in `scope` when the request was made in one; an error is reported
  /// with the async `path` above it, as a synchronous resolution reports its whole chain.
  func resolveSynchronously<T>(
    _ type: T.Type, tag: BindingTag?, matching: TagMatching, scope: Scope?,
    path: AsyncPath? = nil
  ) throws(ResolutionError) -> T {
    let parent = scope.map { ResolutionContext.topLevel(in: $0) } ?? .topLevel
    do {
      if let path, hasGraphBindings {
        // One async resolution is one graph: its synchronous resolves share their instances.
        return try _GraphMemory.resolve(
          T.self, tag: tag, matching: matching, in: self, scope: scope,
          memory: path.scope.synchronousGraph()
        ).value
      }
      guard let tag else { return try resolve(T.self, parent: parent) }
      return try resolve(T.self, tag: tag, matching: matching, parent: parent)
    } catch {
      guard let path else { throw error }
      throw error.below(path.steps)
    }
  }

  /// Awaits an async binding's instance, reading a built persistent one in place.
  func awaitInstance(
    of binding: AsyncBinding, path: AsyncPath?, scope: Scope? = nil
  ) async throws(ResolutionError) -> Any {
    // A built persistent instance never changes: read it without a lock, a task or a path.
    if binding.isReady { return binding.storage.loadAny(binding.layout) }
    let path = AsyncPath.joining(path)
    if let path, path.contains(binding) {
      let steps = path.steps + [ResolutionStep(requested: binding.key, binding: binding.info)]
      throw ResolutionError(
        .cycle, requested: binding.key, path: steps, binding: binding.info, container: self)
    }
    return try await binding.resolveAsync(in: self, path: path, scope: scope)
  }
}
