/// A binding whose factory is `async`. Resolved only with ``Container/resolveAsync(_:)``; a
/// synchronous resolve that reaches it throws ``ResolutionError/Code/asyncBinding``.
///
/// A persistent async binding creates its instance once: the first request starts an
/// unstructured task that every concurrent request awaits, so cancelling one waiter cancels
/// neither the creation nor the other waiters. A failed creation is forgotten, and the next
/// request tries again. Once created, the instance is published in `storage` (as a persistent
/// synchronous binding's is) and read without a lock or a task.
// `task` and `storage` are written holding `lock`; `storage` is published by `isReady`.
final class AsyncBinding: AnyBinding, @unchecked Sendable {
  typealias AsyncMaker = @Sendable (AsyncResolver) async throws -> any Sendable

  let make: AsyncMaker
  private let lock = _Lock.make()
  private var task: Task<any Sendable, any Error>?

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, layout: ValueLayout, make: @escaping AsyncMaker
  ) {
    self.make = make
    super.init(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout)
  }

  override var isAsync: Bool { true }

  override func fresh() -> AnyBinding {
    copyDeclaration(
      to: AsyncBinding(
        key: key, lifetime: lifetime, location: location, registerType: registerType,
        isOverride: isOverride, layout: layout, make: make))
  }

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    throw .asyncBinding(self, fallbackTag: fallbackTag, parent: parent, in: container)
  }

  /// The instance for one asynchronous request, according to the lifetime.
  func resolveAsync(
    in container: Container, path: AsyncPath?
  ) async throws(ResolutionError) -> any Sendable {
    let resolver = AsyncResolver(container: container, path: AsyncPath(binding: self, parent: path))
    guard lifetimeKind == .persistent else {
      return try await run(resolver, in: container)
    }
    let shared: Task<any Sendable, any Error> = lock.withLock {
      if let task { return task }
      let made = Task { () async throws -> any Sendable in try await self.make(resolver) }
      task = made
      return made
    }
    do {
      return try await shared.value
    } catch {
      // Forget a failed creation so that the next request tries again.
      lock.withLock { if task == shared { task = nil } }
      throw wrap(error, resolver: resolver, in: container)
    }
  }

  /// Keeps a persistent instance where later resolves read it without awaiting the task.
  /// `T` is the bound type: the container looked this binding up by it.
  func publish<T>(_ instance: T) {
    lock.withLock {
      if isReady { return }
      allocateStorage()
      storage.initialize(to: instance)
      publishReady()
      // `task` stays: a request that saw no instance a moment ago still gets this one from it.
    }
  }

  private func run(
    _ resolver: AsyncResolver, in container: Container
  ) async throws(ResolutionError) -> any Sendable {
    do {
      return try await make(resolver)
    } catch {
      throw wrap(error, resolver: resolver, in: container)
    }
  }

  private func wrap(
    _ error: any Error, resolver: AsyncResolver, in container: Container
  ) -> ResolutionError {
    if let error = error as? ResolutionError { return error }
    return ResolutionError(
      .factoryFailed, requested: key, path: resolver.path?.steps ?? [], binding: info,
      underlyingError: error, container: container)
  }
}

/// The chain of asynchronous requests, for error paths and cycle detection. Unlike synchronous
/// frames it lives on the heap, because it must survive suspensions.
@usableFromInline
final class AsyncPath: Sendable {
  let binding: AnyBinding
  let parent: AsyncPath?
  let depth: Int

  init(binding: AnyBinding, parent: AsyncPath?) {
    self.binding = binding
    self.parent = parent
    depth = (parent?.depth ?? 0) + 1
  }

  var steps: [ResolutionStep] {
    var steps: [ResolutionStep] = []
    var current: AsyncPath? = self
    while let node = current {
      steps.append(ResolutionStep(requested: node.binding.key, binding: node.binding.info))
      current = node.parent
    }
    return steps.reversed()
  }

  func contains(_ binding: AnyBinding) -> Bool {
    var current: AsyncPath? = self
    while let node = current {
      if node.binding === binding { return true }
      current = node.parent
    }
    return false
  }
}

/// What an async factory uses to resolve its dependencies, synchronous or asynchronous.
///
/// ```swift
/// registrar.bindAsync(Database.self, lifetime: .persistent) { resolver in
///   try await Database.open(config: try resolver.resolve(Config.self))
/// }
/// ```
public struct AsyncResolver: Sendable {
  let container: Container
  let path: AsyncPath?

  /// Resolves a synchronous binding.
  ///
  /// ```swift
  /// let config = try resolver.resolve(Config.self)
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  public func resolve<T>(_ type: T.Type = T.self) throws(ResolutionError) -> T {
    try container.resolve(T.self)
  }

  /// Resolves a binding that may be asynchronous.
  ///
  /// ```swift
  /// let cache = try await resolver.resolveAsync(Cache.self)
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``, with the asynchronous path.
  public func resolveAsync<T: Sendable>(_ type: T.Type = T.self) async throws(ResolutionError) -> T
  {
    try await container.resolveAsync(T.self, path: path)
  }
}

extension Registrar {
  /// Binds `type` to an `async` factory. Resolve it with `try await container.resolveAsync(…)`;
  /// a synchronous resolve throws ``ResolutionError/Code/asyncBinding``.
  ///
  /// Persistent async bindings create their instance once however many tasks ask at the same
  /// time; cancelling one of them does not cancel the creation; a failure is retried by the next
  /// request. Synchronous bindings never pay for this.
  ///
  /// ```swift
  /// registrar.bindAsync(Database.self, lifetime: .persistent) { resolver in
  ///   try await Database.open(path: try resolver.resolve(Config.self).databasePath)
  /// }
  /// let database = try await container.resolveAsync(Database.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: ``Lifetime/persistent`` or ``Lifetime/ephemeral`` (others behave as
  ///     ephemeral for async bindings).
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds the instance asynchronously.
  public mutating func bindAsync<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime = .ephemeral,
    override isOverride: Bool = false, fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (AsyncResolver) async throws -> T
  ) {
    let binding = AsyncBinding(
      key: BindingKey(T.self, tag: internedTag(tag)), lifetime: lifetime,
      location: BindingLocation(fileID: fileID, line: line), registerType: registerType,
      isOverride: isOverride || isOverriding, layout: ValueLayout(of: T.self),
      make: { resolver in try await factory(resolver) })
    collector.add(binding)
  }
}

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
    // A built persistent instance, sync or async, is read in place: no task, no suspension.
    if let built = builtInstance(T.self) { return built }
    return try await resolveAsync(T.self, path: nil)
  }

  @usableFromInline
  func resolveAsync<T: Sendable>(
    _ type: T.Type, path: AsyncPath?
  ) async throws(ResolutionError) -> T {
    guard
      let binding = table.untaggedBinding(ofType: T.self) as? AsyncBinding
    else {
      if let ancestor = parentContainer, ancestor.binds(BindingKey(T.self)) {
        return try await ancestor.resolveAsync(T.self, path: path)
      }
      return try resolve(T.self)
    }
    // A built persistent instance never changes: read it without a lock, a task or a path.
    if binding.isReady {
      return binding.storage.load(as: T.self)
    }
    if let path, path.contains(binding) {
      let steps = path.steps + [ResolutionStep(requested: binding.key, binding: binding.info)]
      throw ResolutionError(
        .cycle, requested: binding.key, path: steps, binding: binding.info, container: self)
    }
    // Stored by this binding's maker, which returns a `T`.
    let instance = try await binding.resolveAsync(in: self, path: path) as! T
    if binding.lifetimeKind == .persistent { binding.publish(instance) }
    return instance
  }
}
