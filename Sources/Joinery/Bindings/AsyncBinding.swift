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
    // The creations on this request's path wait for this one: refuse a wait that closes a ring
    // with creations in other tasks, which would never end.
    let waiters = path?.bindings ?? []
    if !waiters.isEmpty {
      if let ring = container.asyncWaits.beginWaiting(waiters, for: self) {
        let steps = resolver.path?.steps ?? []
        let chain = ring.map(\.description).joined(separator: " → ")
        throw ResolutionError(
          .cycle, requested: key, path: steps, binding: info,
          detail: """
            Awaiting \(key) would never end: async creations in different tasks await each \
            other in a ring (\(chain)), so this one stops instead.
            """,
          container: container)
      }
    }
    defer { if !waiters.isEmpty { container.asyncWaits.endWaiting(waiters, for: self) } }
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
