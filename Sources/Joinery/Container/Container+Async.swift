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
  /// ``resolveAll(_:isolation:)`` gives (the root's first, then each child's; assembly order, then
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
  /// Generic only at its edges, and inlined there: the search and the wait are written once,
  /// for every type.
  @inlinable
  func resolveAsync<T: Sendable>(
    _ type: T.Type, tag: BindingTag?, matching: TagMatching, path: AsyncPath?,
    scope: Scope? = nil
  ) async throws(ResolutionError) -> T {
    // A request made while an async factory runs in this task joins its chain.
    let path = AsyncPath.joining(path)
    let scope = scope ?? path?.requestScope
    switch asyncLookup(T.self, tag: tag, matching: matching, scope: scope) {
    case .synchronous:
      // Nothing async to await: the synchronous resolve serves it or reports what is missing.
      return try resolveSynchronously(
        T.self, tag: tag, matching: matching, scope: scope, path: path)
    case .made(let instance):
      // Made by a binding of `T` (built, or this scope's): no suspension.
      return instance as! T
    case .pending(let pending):
      let instance = try await awaitPending(pending, path: path, scope: scope)
      if let converted = instance as? T { return converted }
      throw pending.mismatch(instance, path: path)
    }
  }

  /// What an async request finds, without suspending.
  @usableFromInline
  enum AsyncLookup {
    /// No async binding serves it.
    case synchronous
    case made(Any)
    case pending(PendingAsync)
  }

  /// An async binding to await, directly or through a forward.
  @usableFromInline
  struct PendingAsync {
    let owner: Container
    let binding: AsyncBinding
    let forward: ForwardingBinding?

    /// The error for a forward whose target made something else.
    @usableFromInline
    func mismatch(_ instance: Any, path: AsyncPath?) -> ResolutionError {
      let key = forward?.key ?? binding.key
      return ResolutionError(
        .forwardingTypeMismatch, requested: key, path: path?.steps ?? [],
        binding: forward?.info ?? binding.info,
        detail: """
          The target made a \(TypeName.of(Swift.type(of: instance))), which is not a \
          \(key.typeName).
          """,
        container: owner)
    }
  }

  /// The async binding that serves a request for `type` (through a forward, perhaps), or its
  /// instance when it is made already.
  @usableFromInline
  func asyncLookup(
    _ type: Any.Type, tag: BindingTag?, matching: TagMatching, scope: Scope?
  ) -> AsyncLookup {
    var found = bindingAndOwner(for: BindingKey(type, boxed: tag))
    if found == nil, tag != nil, matching.allowsFallback {
      found = bindingAndOwner(for: BindingKey(type))
    }
    guard let (binding, owner) = found else { return .synchronous }
    if let async = binding as? AsyncBinding {
      if let made = async.madeInstance(in: scope) { return .made(made) }
      return .pending(PendingAsync(owner: owner, binding: async, forward: nil))
    }
    guard let forward = binding as? ForwardingBinding, let target = forward.target as? AsyncBinding
    else { return .synchronous }
    return .pending(
      PendingAsync(owner: forward.ancestor ?? owner, binding: target, forward: forward))
  }

  /// The binding of `key` and the container that holds it: this one or the nearest ancestor.
  private func bindingAndOwner(for key: BindingKey) -> (AnyBinding, Container)? {
    var current: Container? = self
    while let container = current {
      if let binding = container.table.binding(for: key) { return (binding, container) }
      current = container.parentContainer
    }
    return nil
  }

  /// Awaits a pending async binding's instance.
  @usableFromInline
  func awaitPending(
    _ pending: PendingAsync, path: AsyncPath?, scope: Scope?
  ) async throws(ResolutionError) -> Any {
    try await pending.owner.awaitInstance(of: pending.binding, path: path, scope: scope)
  }

  /// A synchronous resolve, in `scope` when the request was made in one; an error is reported
  /// with the async `path` above it, as a synchronous resolution reports its whole chain.
  @usableFromInline
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
  @inline(__always)
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
