/// A binding whose factory is `async`. Resolved only with ``Container/resolveAsync(_:)``; a
/// synchronous resolve that reaches it throws ``ResolutionError/Code/asyncBinding``.
///
/// Every lifetime behaves as it does for a synchronous binding:
/// - `persistent`: the first request starts an unstructured task that every concurrent request
///   awaits, so cancelling one waiter cancels neither the creation nor the other waiters. A
///   failed creation is forgotten and the next request tries again. Once created, the instance
///   is published in `storage` and read without a lock or a task.
/// - `cached`: as persistent, until its cache group is reset; the next request then creates anew.
/// - `transient`: concurrent requests share one creation; afterwards only a weak reference is
///   kept, so the instance is shared while someone holds it.
/// - `graph`: one instance per top-level `resolveAsync`, shared by everything it awaits.
/// - `scoped`: one instance per ``Scope``, started once and awaited by every request in the
///   scope (``Scope/resolveAsync(_:)``), disposed by ``Scope/close()``.
/// - `ephemeral`: a new instance for every request.
// `shared`, `sharedGeneration`, `alive` and `storage` are written holding `lock`; `storage` is
// published by `isReady`.
final class AsyncBinding: AnyBinding, CacheMember, @unchecked Sendable {
  typealias AsyncMaker = @Sendable (AsyncResolver) async throws -> any Sendable

  let make: AsyncMaker
  /// For a binding with runtime arguments: makes an instance from a resolver and the request's
  /// arguments (a tuple of the bound argument types).
  ///
  /// Always a new instance.
  typealias AsyncArgumentMaker =
    @Sendable (AsyncResolver, any Sendable) async throws -> any Sendable
  var argumentMake: AsyncArgumentMaker?
  private let lock = _Lock.make()
  /// The creation every request of a shared lifetime awaits (persistent, cached; transient while
  /// it runs).
  private var shared: Task<any Sendable, any Error>?
  /// For `cached`: the group generation `shared` was started in.
  private var sharedGeneration: UInt = 0
  /// For `transient`: the object of the last instance, while someone holds it.
  private weak var alive: AnyObject?
  /// For `cached`: the group, owned by the container (which also owns the binding).
  private weak var group: CacheGroupState?

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

  /// Whether resolving needs runtime arguments: the key names their tuple type.
  override var needsArguments: Bool { key.argumentTypes != nil }

  override func fresh() -> AnyBinding {
    let copy = AsyncBinding(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout, make: make)
    copy.argumentMake = argumentMake
    return copyDeclaration(to: copy)
  }

  /// A new instance from a binding with runtime arguments.
  func make(
    arguments: any Sendable, in container: Container, path: AsyncPath?
  ) async throws(ResolutionError) -> any Sendable {
    let node = AsyncPath(binding: self, parent: path)
    let resolver = AsyncResolver(container: container, path: node)
    guard let argumentMake else { preconditionFailure("an argument binding has a maker") }
    do {
      return try await argumentMake(resolver, arguments)
    } catch {
      throw wrap(error, resolver: resolver, in: container)
    }
  }

  override func link(in container: Container) {
    guard lifetimeKind == .cached else { return }
    let group = container.cacheGroupState(for: lifetime.group ?? .default)
    group.add(self)
    lock.withLock { self.group = group }
  }

  func dropInstanceIfIdle() {
    lock.withLock { shared = nil }
  }

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    throw .asyncBinding(self, fallbackTag: fallbackTag, parent: parent, in: container)
  }

  /// The instance for one asynchronous request, according to the lifetime; `scope` is the
  /// ``Scope`` a top-level request (no `path`) was made in.
  func resolveAsync(
    in container: Container, path: AsyncPath?, scope: Scope? = nil
  ) async throws(ResolutionError) -> Any {
    if container.disposals.isClosed {
      throw ResolutionError(
        .shutDown, requested: key, path: path?.steps ?? [], binding: info,
        detail: "The container was shut down: its instances were disposed.", container: container)
    }
    let node = AsyncPath(binding: self, parent: path, requestScope: scope)
    let resolver = AsyncResolver(container: container, path: node)
    switch lifetimeKind {
    case .ephemeral:
      return try await run(resolver, in: container)
    case .graph:
      let made = node.scope.task(for: self) {
        Task { () async throws -> any Sendable in try await self.make(resolver) }
      }
      return try await awaitShared(
        made, resolver: resolver, path: path, in: container, creations: node.scope)
    case .transient:
      let step = lock.withLock { () -> TransientStep in
        if let object = alive { return .alive(object) }
        if let shared { return .await(shared) }
        let made = Task { () async throws -> any Sendable in try await self.make(resolver) }
        shared = made
        return .await(made)
      }
      guard case .await(let made) = step else {
        if case .alive(let object) = step { return object }
        preconditionFailure("unreachable")
      }
      let instance = try await awaitShared(made, resolver: resolver, path: path, in: container)
      let object = Self.object(in: instance)
      lock.withLock {
        if shared == made {
          shared = nil
          alive = object
        }
      }
      guard object != nil else {
        throw ResolutionError(
          .transientValueType, requested: key, path: node.steps, binding: info,
          detail: """
            \(key) is transient (weak), but its factory made a \(type(of: instance)), a value, \
            which cannot be referenced weakly.
            """,
          container: container)
      }
      return instance
    case .scoped:
      return try await scopedInstance(node: node, resolver: resolver, path: path, in: container)
    case .persistent, .cached:
      let made = lock.withLock { () -> Task<any Sendable, any Error> in
        let current = group?.generation ?? 0
        if let shared, lifetimeKind == .persistent || sharedGeneration == current { return shared }
        let made = Task { () async throws -> any Sendable in
          try await self.makeTracked(
            resolver, recordingIn: container.disposals, path: node, in: container)
        }
        shared = made
        sharedGeneration = current
        return made
      }
      return try await awaitShared(made, resolver: resolver, path: path, in: container)
    }
  }

  /// The instance of the request's scope: its creation is started once per scope and awaited
  /// by every request in it; the scope disposes it.
  private func scopedInstance(
    node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?, in container: Container
  ) async throws(ResolutionError) -> any Sendable {
    guard let scope = node.requestScope else {
      throw ResolutionError(
        .scopeRequired, requested: key, path: node.steps, binding: info,
        detail:
          "Its lifetime is scoped: one instance per scope, and this request was made in none.",
        container: container)
    }
    if scope.isClosed {
      throw ResolutionError(
        .shutDown, requested: key, path: node.steps, binding: info,
        detail: "The scope was closed: its instances were disposed.", container: container)
    }
    let creations = scope.asyncCreations
    let made = creations.task(for: self) {
      Task { () async throws -> any Sendable in
        try await self.makeTracked(
          resolver, recordingIn: scope.disposals, path: node, in: container)
      }
    }
    let instance = try await awaitShared(
      made, resolver: resolver, path: path, in: container, creations: creations)
    creations.markMade(self)
    return instance
  }

  /// Makes an instance whose disposal goes to `list`: a creation `list`'s closer waits for, so
  /// an instance made while it closes is disposed in order; its request then fails with
  /// `shutDown` instead of getting it.
  private func makeTracked(
    _ resolver: AsyncResolver, recordingIn list: DisposalList, path: AsyncPath,
    in container: Container
  ) async throws -> any Sendable {
    guard let disposer else { return try await make(resolver) }
    guard list.beginCreation() else { throw closedError(list, path: path, in: container) }
    defer { list.endCreation() }
    let instance = try await make(resolver)
    list.record(self, disposer(instance))
    if list.isClosed { throw closedError(list, path: path, in: container) }
    return instance
  }

  private func closedError(
    _ list: DisposalList, path: AsyncPath, in container: Container
  ) -> ResolutionError {
    let scopeClosed = list !== container.disposals
    return ResolutionError(
      .shutDown, requested: key, path: path.steps, binding: info,
      detail: scopeClosed
        ? "The scope was closed while its instance was being made: the scope disposed it."
        : "The container was shut down while its instance was being made: shutdown disposed it.",
      container: container)
  }

  private enum TransientStep {
    case alive(AnyObject)
    case await(Task<any Sendable, any Error>)
  }

  /// The class instance an instance is or wraps, if any.
  private static func object(in instance: any Sendable) -> AnyObject? {
    type(of: instance as Any) is AnyObject.Type ? instance as AnyObject : nil
  }

  /// Awaits a creation other requests may share, refusing a wait that closes a ring of async
  /// creations in different tasks (which would never end).
  ///
  /// `creations` holds the creation when a unit of work (a graph, a scope) does, to forget a
  /// failed one there.
  private func awaitShared(
    _ shared: Task<any Sendable, any Error>, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container, creations: AsyncGraphScope? = nil
  ) async throws(ResolutionError) -> any Sendable {
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
      lock.withLock { if self.shared == shared { self.shared = nil } }
      creations?.forget(self, ifItIs: shared)
      throw wrap(error, resolver: resolver, in: container)
    }
  }

  /// Keeps a persistent instance where later resolves read it without awaiting the task.
  ///
  /// `instance` is what the maker returned: an instance of the bound type.
  func publish(_ instance: Any) {
    lock.withLock {
      if isReady { return }
      allocateStorage()
      storage.initialize(fromAny: instance, layout)
      publishReady()
      // `shared` stays: a request that saw no instance a moment ago still gets this one from it.
    }
  }

  /// The published persistent instance, if there is one.
  func publishedInstance() -> Any? { isReady ? storage.loadAny(layout) : nil }

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
