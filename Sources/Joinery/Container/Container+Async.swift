internal import JoineryEngine

extension Container {
  /// Every contribution to the multi-binding of `type` (with `tag`), awaiting the async ones,
  /// for a request below `path` (if any) in `scope` (if any).
  @usableFromInline
  func resolveAllAsync<T: Sendable>(
    _: T.Type, tag: BindingTag?, where predicate: ((BindingInfo) -> Bool)?, path: AsyncPath?,
    scope: Scope?
  ) async throws(ResolutionError) -> [T] {
    try checkOpen(T.self)
    var path = AsyncPath.joining(path)
    let scope = scope ?? path?.requestScope
    let found = contributions(
      to: T.self, tag: tag, where: predicate, seenFrom: path?.binding.module)
    if path == nil, found.count > 1, hasGraphBindings {
      // One top-level call is one resolution: its contributions share their `graph`
      // instances, as they do when a factory asks.
      path = AsyncPath.marker(in: self, requestScope: scope)
    }
    var instances: [T] = []
    for (container, contribution) in found {
      if let async = contribution.asyncFactory {
        // Made by a contribution of `T`: the cast does not fail.
        let instance = try await container.awaitInstance(of: async, path: path, scope: scope)
        do {
          instances.append(try UnexpectedValueType.cast(instance, to: T.self))
        } catch {
          throw PendingAsync.mismatch(of: async, instance, in: container, path: path)
        }
      } else {
        // Continuing the path, as `resolveAsync` of a synchronous binding does: the same
        // `graph` instances, captive check and error path.
        let point = _RequestPoint(container: container, scope: scope, isolation: nil, path: path)
        instances.append(
          try point.run(T.self, tag: tag) { container, context throws(ResolutionError) -> T in
            try container.instance(of: contribution, as: T.self, parent: context, fallbackTag: nil)
          })
      }
    }
    return instances
  }

  /// The instance of the async binding of `T` under `tag` (or its untagged fallback, as
  /// `matching` allows) that takes runtime arguments of `signature`, awaited; `nil` when no
  /// async binding takes them (a synchronous one may, or none).
  @usableFromInline
  func awaitArguments<T: Sendable>(
    _: T.Type, tag: BindingTag?, matching: TagMatching, signature: Any.Type,
    _ arguments: any Sendable, path: AsyncPath?, scope: Scope?
  ) async throws(ResolutionError) -> T? {
    guard
      let (owner, binding) = argumentBinding(
        for: T.self, tag: tag, allowsFallback: matching.allowsFallback, signature: signature),
      let async = binding.asyncFactory
    else { return nil }
    if let recorder { recorder.record(from: path, to: binding) }
    // Made by the binding's factory, which returns its bound type: the cast does not fail.
    let made = try await async.make(arguments: arguments, in: owner, path: path, scope: scope)
    do {
      return .some(try UnexpectedValueType.cast(made, to: T.self))
    } catch {
      throw PendingAsync.mismatch(of: async, made, in: owner, path: path)
    }
  }

  /// `awaitArguments(_:tag:matching:signature:_:path:)` for a type known only at run time (a
  /// verification's sample).
  func awaitArguments(
    for type: Any.Type, tag: BindingTag?, matching: TagMatching, signature: Any.Type,
    _ arguments: Any, path: AsyncPath?, scope: Scope?
  ) async throws(ResolutionError) -> (any Sendable)? {
    guard
      let (owner, binding) = argumentBinding(
        for: type, tag: tag, allowsFallback: matching.allowsFallback, signature: signature),
      let async = binding.asyncFactory
    else { return nil }
    if let recorder { recorder.record(from: path, to: binding) }
    return try await async.make(arguments: arguments, in: owner, path: path, scope: scope)
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
    switch asyncLookup(
      T.self, tag: tag, matching: matching, scope: scope, path: path,
      isOptional: _isOptional(T.self))
    {
    case .synchronous:
      // Nothing async to await: the synchronous resolve serves it or reports what is missing.
      return try resolveInPlace(
        T.self, tag: tag, matching: matching, path: path, scope: scope, isolation: nil)
    case .mainActor:
      // A main-actor factory: hop to the main actor, and resolve there as main-actor code does.
      let result: Result<T, ResolutionError> = await MainActor.run {
        do throws(ResolutionError) {
          return .success(
            try resolveInPlace(
              T.self, tag: tag, matching: matching, path: path, scope: scope,
              isolation: MainActor.shared))
        } catch {
          return .failure(error)
        }
      }
      return try result.get()
    case .made(let instance, let binding):
      // Made by a binding of `T` or of the type `T` wraps (built, or this scope's): no
      // suspension, and a cast that does not fail.
      do {
        return try UnexpectedValueType.cast(instance, to: T.self)
      } catch {
        throw PendingAsync.mismatch(of: binding, instance, in: self, path: path)
      }
    case .privatelyBound(let binding):
      return try _RequestPoint(container: self, scope: scope, isolation: nil, path: path).run(
        T.self, tag: tag
      ) { container, context throws(ResolutionError) -> T in
        try container.instance(of: binding, as: T.self, parent: context, fallbackTag: nil)
      }
    case .pending(let pending):
      let instance = try await awaitPending(pending, path: path, scope: scope)
      do {
        return try UnexpectedValueType.cast(instance, to: T.self)
      } catch {
        throw pending.mismatch(instance, path: path)
      }
    }
  }

  /// The asynchronous resolve of a request with runtime arguments (`arguments`, a tuple of
  /// their types): an async binding is awaited, a main-actor one made on the main actor, any
  /// other resolved in place.
  @usableFromInline
  func resolveAsync<T: Sendable, Arguments: Sendable>(
    _ type: T.Type, tag: BindingTag?, matching: TagMatching, arguments: Arguments,
    path: AsyncPath?, scope: Scope?
  ) async throws(ResolutionError) -> T {
    if let made: T = try await awaitArguments(
      T.self, tag: tag, matching: matching, signature: Arguments.self, arguments, path: path,
      scope: scope)
    {
      return made
    }
    let found = argumentBinding(
      for: T.self, tag: tag, allowsFallback: matching.allowsFallback, signature: Arguments.self)
    guard found?.binding.isMainActor == true else {
      return try resolveInPlace(
        T.self, tag: tag, matching: matching, arguments: arguments, path: path, scope: scope,
        isolation: nil)
    }
    let result: Result<T, ResolutionError> = await MainActor.run {
      do throws(ResolutionError) {
        return .success(
          try resolveInPlace(
            T.self, tag: tag, matching: matching, arguments: arguments, path: path, scope: scope,
            isolation: MainActor.shared))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The synchronous resolve of an async request with runtime arguments that no async binding
  /// serves, as a caller isolated to `isolation`.
  func resolveInPlace<T, Arguments>(
    _ type: T.Type, tag: BindingTag?, matching: TagMatching, arguments: Arguments,
    path: AsyncPath?, scope: Scope?, isolation: (any Actor)?
  ) throws(ResolutionError) -> T {
    try _RequestPoint(container: self, scope: scope, isolation: isolation, path: path).run(
      T.self, tag: tag
    ) { container, context throws(ResolutionError) -> T in
      try _Arguments.with(arguments) { arguments throws(ResolutionError) -> T in
        try container.resolve(
          T.self, tag: tag, matching: matching, signature: Arguments.self, arguments: arguments,
          parent: context)
      }
    }
  }

  /// The synchronous resolve of an async request that no async binding serves, continuing
  /// its path, as a caller isolated to `isolation`.
  @usableFromInline
  func resolveInPlace<T>(
    _ type: T.Type, tag: BindingTag?, matching: TagMatching, path: AsyncPath?, scope: Scope?,
    isolation: (any Actor)?
  ) throws(ResolutionError) -> T {
    try _RequestPoint(container: self, scope: scope, isolation: isolation, path: path).run(
      T.self, tag: tag
    ) { container, context throws(ResolutionError) -> T in
      guard let tag else { return try container.resolve(T.self, parent: context) }
      return try container.resolve(T.self, tag: tag, matching: matching, parent: context)
    }
  }

  /// What an async request finds, without suspending.
  @usableFromInline
  enum AsyncLookup {
    /// No async binding serves it.
    case synchronous
    /// A main-actor binding serves it (directly or through a forward): resolved synchronously
    /// on the main actor, where its factory may run.
    case mainActor
    /// The instance a binding of the requested type made already, and that binding.
    case made(Any, AnyBinding)
    /// A synchronous binding the requesting factory's module keeps private: resolved in place.
    case privatelyBound(AnyBinding)
    case pending(PendingAsync)
  }

  /// An async binding to await, directly or through a forward.
  @usableFromInline
  struct PendingAsync {
    let owner: Container
    let binding: AnyBinding
    let forward: AnyBinding?

    /// The error for an async binding whose instance is not of the requested type (never,
    /// for a binding of the type: its factory returns one).
    @usableFromInline
    static func mismatch(
      of binding: AnyBinding, _ instance: Any, in owner: Container, path: AsyncPath?
    ) -> ResolutionError {
      PendingAsync(owner: owner, binding: binding, forward: nil).mismatch(instance, path: path)
    }

    /// The error for a forward whose target made something else.
    @usableFromInline
    func mismatch(_ instance: Any, path: AsyncPath?) -> ResolutionError {
      .forwardingMismatch(
        forward ?? binding, fallbackTag: nil, parent: path,
        instanceType: Swift.type(of: instance), in: owner)
    }
  }

  /// The async binding that serves a request for `type` (through a forward, perhaps), or its
  /// instance when it is made already.
  ///
  /// `isOptional`: whether `type` is an `Optional`. A `Wrapped?` bound by nothing is served by
  /// `Wrapped`'s binding when that one is async (its instance is then returned as is, for the
  /// caller to wrap); otherwise the synchronous resolve serves it.
  @usableFromInline
  func asyncLookup(
    _ type: Any.Type, tag: BindingTag?, matching: TagMatching, scope: Scope?, path: AsyncPath?,
    isOptional: Bool
  ) -> AsyncLookup {
    let fallsBack = tag != nil && matching.allowsFallback
    guard
      let (binding, owner) = lookup(BindingKey(type, boxed: tag))
        ?? (fallsBack ? lookup(BindingKey(type, boxed: nil)) : nil)
    else {
      // A binding the requesting factory's module keeps private.
      if !privateBindings.isEmpty, let module = path?.binding.module,
        let kept = privateBinding(
          for: BindingKey(type, boxed: tag), allowsFallback: fallsBack, in: module)
      {
        guard let async = kept.asyncFactory else { return .privatelyBound(kept) }
        if case .made(let made) = async.madeInstance(in: scope, below: path) {
          return .made(made, async)
        }
        return .pending(PendingAsync(owner: self, binding: async, forward: nil))
      }
      guard isOptional, let optional = optionalDependency(type) else {
        return .synchronous
      }
      return asyncLookup(
        optional.wrappedType, tag: tag, matching: matching, scope: scope, path: path,
        isOptional: false)
    }
    if let recorder { recorder.record(from: path, to: binding) }
    if let async = binding.asyncFactory {
      if case .made(let made) = async.madeInstance(in: scope, below: path) {
        return .made(made, async)
      }
      return .pending(PendingAsync(owner: owner, binding: async, forward: nil))
    }
    if binding.isMainActor { return .mainActor }
    guard let forward = binding.forward else { return .synchronous }
    if forward.target?.isMainActor == true { return .mainActor }
    guard let target = forward.target?.asyncFactory else { return .synchronous }
    return .pending(
      PendingAsync(owner: forward.ancestor ?? owner, binding: target, forward: binding))
  }

  /// Awaits a pending async binding's instance.
  @usableFromInline
  func awaitPending(
    _ pending: PendingAsync, path: AsyncPath?, scope: Scope?
  ) async throws(ResolutionError) -> Any {
    try await pending.owner.awaitInstance(of: pending.binding, path: path, scope: scope)
  }

  /// Awaits an async binding's instance, reading a built persistent one in place.
  @inline(__always)
  func awaitInstance(
    of binding: AnyBinding, path: AsyncPath?, scope: Scope? = nil
  ) async throws(ResolutionError) -> Any {
    // A built persistent instance never changes: read it without a lock, a task or a path.
    if binding.isReady { return binding.storage.loadAny(binding.layout) }
    return try await binding.resolveAsync(in: self, path: AsyncPath.joining(path), scope: scope)
  }
}
