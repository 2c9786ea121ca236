internal import JoineryEngine

/// The asynchronous engine's side of a binding (``AnyBinding``) with an `async` factory,
/// resolved only with ``Container/resolveAsync(_:tag:matching:arguments:)``; a synchronous
/// resolve that reaches it throws ``ResolutionError/Code/asyncBinding``.
///
/// Every lifetime behaves as it does for a synchronous binding. A shared instance is made once
/// (an ``AsyncCreation`` in the binding's ``LifetimeCell`` for a persistent or cached one, an
/// ``AsyncSlot`` of its region — the scope, the resolution, the transient binding itself — for
/// the others): the request that finds none makes it, the requests that come while it runs
/// await it without a task of their own, and a failed creation is forgotten so that the next
/// request tries again.
/// - `persistent`: made in a task of its own, so that cancelling the request that came first
///   cancels neither the creation nor the other waiters. Once made, the instance is published
///   in `storage` and read without a lock or a task.
/// - `cached`: as persistent, until its cache group is reset; the next request then creates anew.
/// - `transient`: concurrent requests share one creation, made inline; afterwards only a weak
///   reference is kept, so the instance is shared while someone holds it.
/// - `graph`: one instance per top-level `resolveAsync`, shared by everything it awaits, made
///   inline by its first request (``sharedInstance(in:node:resolver:path:in:)``).
/// - `scoped`: one instance per ``Scope``, kept in the scope's own state (`DisposalList`),
///   made the same way and disposed by ``Scope/close()``.
/// - `ephemeral`: a new instance for every request.
///
/// An inline creation whose request is cancelled is *abandoned*: the requests awaiting it start
/// over, and one of them makes the instance.
extension AnyBinding {
  /// The async factory's state (an async binding always has a cell).
  @inline(__always)
  private var asyncState: Protected<LifetimeCell> { cell! }

  /// A new instance from a binding with runtime arguments, made in `scope` when the request
  /// was made in one (below the top, `path` knows it), with the checks every async request
  /// makes first.
  func make(
    arguments: Any, in container: Container, path: AsyncPath?, scope: Scope?
  ) async throws(ResolutionError) -> any Sendable {
    let path = AsyncPath.joining(path)
    if container.disposals.isClosed {
      throw .shutDown(key, scopeClosed: false, parent: path, in: container)
    }
    try path?.checkCapture(of: self, in: container)
    let node = try AsyncPath.enter(self, below: path, requestScope: scope, in: container)
    let resolver = AsyncResolver(container: container, path: node)
    guard let make = asyncArgumentMaker else {
      let error = UnexpectedValueType(expected: Void.self, found: type(of: arguments))
      throw .factoryFailed(self, frame: node, error: error, in: container)
    }
    return try await run(node, in: container) { try await make(resolver, arguments) }
  }

  /// Whether the container holds an instance now: a built persistent one, the current cache
  /// generation's made one, or a transient one someone holds.
  var holdsAsyncInstance: Bool {
    if isReady { return true }
    return asyncState.withLock {
      if $0.alive != nil { return true }
      guard $0.generation == $0.group?.generation ?? 0, case .made = $0.slot.instance else {
        return false
      }
      return true
    }
  }

  /// Puts `instance` into this cached binding for the current generation.
  ///
  /// As if a request had just made it (``Container/store(_:for:tag:)``), and disposed like one.
  /// The instance it replaces is disposed, unless `isStored` says it is the same one.
  func store(_ instance: any Sendable, isStored: (Any) -> Bool, in container: Container) {
    let (kept, replaced) = asyncState.withLock { cell -> (Bool, Bool) in
      let current = cell.group?.generation ?? 0
      if case .made(let held) = cell.slot.instance, isStored(held) {
        cell.generation = current
        return (true, false)
      }
      defer {
        cell.slot = AsyncSlot(instance: .made(instance))
        cell.generation = current
      }
      return (false, cell.slot.isInUse)
    }
    guard !kept, let disposer else { return }
    // Before the new instance is recorded, which the take would find too.
    if replaced { disposeReplaced(in: container) }
    container.disposals.record(self, disposer(instance))
  }

  /// Disposes the cached instances a newer one replaced that no reset took
  /// (``CacheGroupState/disposeReplaced(madeBy:in:)``).
  private func disposeReplaced(in container: Container) {
    asyncState.withLock({ $0.group })?.disposeReplaced(madeBy: self, in: container)
  }

  /// The instance for one asynchronous request, according to the lifetime; `scope` is the
  /// ``Scope`` a top-level request (no `path`) was made in.
  ///
  /// A shared instance is made by the first request for it, in that request's task, and
  /// awaited by the others; persistent and cached instances, which outlive the request, are
  /// made in a task of their own, so that cancelling the request that came first cancels
  /// nothing the others wait for.
  ///
  /// Inlined into its one caller, so that the strategy's is the only async frame between the
  /// request and the lifetime's work.
  @inline(__always)
  func resolveAsync(
    in container: Container, path: AsyncPath?, scope: Scope? = nil
  ) async throws(ResolutionError) -> Any {
    while true {
      if container.disposals.isClosed {
        throw .shutDown(key, scopeClosed: false, parent: path, in: container)
      }
      try path?.checkCapture(of: self, in: container)
      let node = try AsyncPath.enter(self, below: path, requestScope: scope, in: container)
      let resolver = AsyncResolver(container: container, path: node)
      if let made = try await strategyType.resolveAsync(
        self, node: node, resolver: resolver, path: path, in: container)
      {
        return made
      }
      // A creation abandoned by a cancelled request: start over (this request may make it).
    }
  }

  /// The instance of a container-wide binding kept beyond the request (persistent, cached).
  ///
  /// The binding's slot keeps it for the cache group's current generation (any one without a
  /// group): made, or its creation under way, else a new creation started in a task of its own
  /// (``startCreation(_:node:resolver:in:)``) that this request awaits like any other.
  @inline(__always)
  func containerInstance(
    node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?, in container: Container
  ) async throws(ResolutionError) -> Any? {
    let step = asyncState.withLock { cell -> ContainerStep in
      let current = cell.group?.generation ?? 0
      if cell.generation == current {
        if case .made(let instance) = cell.slot.instance { return .made(instance) }
        if let rendezvous = cell.slot.rendezvous { return .await(rendezvous) }
      }
      // Started below, in a task of its own: this request awaits it like any other.
      let made = AsyncCreation()
      cell.slot = AsyncSlot(isMaking: true, rendezvous: made)
      cell.generation = current
      // A cached binding may replace an instance a reset found being made (and forgot).
      return .start(made, replacing: cell.group != nil)
    }
    switch step {
    case .made(let instance):
      return instance
    case .await(let creation):
      return try await awaitCreation(creation, node: node, path: path, in: container)
    case .start(let creation, let replacing):
      // Before the new creation starts, whose instance the take would find too.
      if replacing, disposer != nil { disposeReplaced(in: container) }
      startCreation(creation, node: node, resolver: resolver, in: container)
      return try await awaitCreation(creation, node: node, path: path, in: container)
    }
  }

  /// What a persistent or cached request does, decided under the cell's lock.
  private enum ContainerStep {
    case made(Any)
    case await(AsyncCreation)
    case start(AsyncCreation, replacing: Bool)
  }

  /// Makes a persistent or cached instance in a task of its own.
  ///
  /// So cancelling the request that came first cancels nothing the others wait for. A permanent
  /// instance is published in `storage`. The binding's slot keeps the instance, or forgets a
  /// failed creation, unless a reset replaced the creation meanwhile.
  private func startCreation(
    _ creation: AsyncCreation, node: AsyncPath, resolver: AsyncResolver, in container: Container
  ) {
    let disposals = container.disposals
    let publishes = lifetime.strategy.isPermanent
    let make = asyncMake
    Task {
      let outcome: AsyncCreation.Outcome
      do {
        outcome = .made(
          try await node.running {
            let instance = try await self.makeTracked(
              make, resolver, recordingIn: disposals, path: node, in: container)
            if publishes { self.publish(instance) }
            return instance
          })
      } catch {
        outcome = .failed(error)
      }
      asyncState.withLock { cell in
        guard cell.slot.rendezvous === creation else { return }
        if case .made(let instance) = outcome {
          _ = cell.slot.end(.made(instance))
        } else {
          _ = cell.slot.end(.none)
        }
      }
      creation.end(outcome)
    }
  }

  /// The scope a scoped request was made in, open.
  func requestScope(
    of node: AsyncPath, in container: Container
  ) throws(ResolutionError) -> Scope {
    guard let scope = node.requestScope else {
      throw .scopeRequired(self, fallbackTag: nil, parent: node.parent, in: container)
    }
    if scope.disposals.isClosed {
      throw .shutDown(key, scopeClosed: true, parent: node.parent, in: container)
    }
    return scope
  }

  /// The instance `region` shares: a scope's, or a top-level async resolution's.
  ///
  /// Made already, awaited while another request makes it, or made here, in this request's
  /// task, as `node`'s factory; the requests that came meanwhile get it, or the failure. `nil`
  /// when the creation this request awaited was abandoned by a cancelled request.
  @inline(__always)
  func sharedInstance(
    in region: any AsyncRegion, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    let make = asyncMake
    switch region.claimShared(self) {
    case .made(let instance):
      return instance
    case .await(let rendezvous):
      return try await awaitCreation(rendezvous, node: node, path: path, in: container)
    case .make:
      do {
        let instance = try await node.running {
          guard let list = region.disposalList else { return try await make(resolver) }
          return try await self.makeTracked(
            make, resolver, recordingIn: list, path: node, in: container)
        }
        region.endShared(self, .made(instance))?.end(.made(instance))
        return instance
      } catch {
        region.endShared(self, .none)?.end(Task.isCancelled ? .abandoned : .failed(error))
        throw wrap(error, path: node, in: container)
      }
    }
  }

  /// Makes an instance with `make` (``asyncMake``, read by the caller before its closure) whose
  /// disposal goes to `list`: a creation `list`'s closer waits for, so
  /// an instance made while it closes is disposed in order; its request then fails with
  /// `shutDown` instead of getting it.
  @inline(__always)
  func makeTracked(
    _ make: AsyncMaker, _ resolver: AsyncResolver, recordingIn list: DisposalList,
    path: AsyncPath, in container: Container
  ) async throws -> any Sendable {
    guard let disposer else { return try await make(resolver) }
    guard list.beginCreation() else { throw closedError(list, path: path, in: container) }
    defer { list.endCreation() }
    let instance = try await make(resolver)
    list.record(self, disposer(instance))
    if list.isClosed { throw closedError(list, path: path, in: container) }
    return instance
  }

  func closedError(
    _ list: DisposalList, path: AsyncPath, in container: Container
  ) -> ResolutionError {
    .closedMeanwhile(
      self, scopeClosed: list !== container.disposals, parent: path.parent, in: container)
  }

  /// The class instance an instance is or wraps, if any.
  static func object(in instance: Any) -> AnyObject? {
    type(of: instance as Any) is AnyObject.Type ? instance as AnyObject : nil
  }

  /// Awaits a creation another request makes, refusing a wait that could never end.
  ///
  /// The wait is refused when it closes a ring of async creations in different tasks, and ends
  /// at once, with a `CancellationError` inside, when this request's task is cancelled. `nil`
  /// when the creation was abandoned by a cancelled request.
  func awaitCreation(
    _ creation: AsyncCreation, node: AsyncPath, path: AsyncPath?, in container: Container
  ) async throws(ResolutionError) -> (any Sendable)? {
    if let ended = creation.ended { return try outcome(ended, node: node, in: container) }
    // The creations on this request's path wait for this one: refuse a wait that closes a ring
    // with creations in other tasks, which would never end.
    let waiters = path?.bindings ?? []
    if !waiters.isEmpty {
      if let ring = container.waits.beginWaiting(waiters, for: self) {
        // Waiting for a creation this very path is in the middle of: a cycle deeper than
        // the constant-work test of `AsyncPath.enter` has met yet.
        if let path, path.contains(self) {
          throw .cycle(self, fallbackTag: nil, parent: path, in: container)
        }
        throw .waitRing(
          self, fallbackTag: nil, parent: node.parent, waitingChain: ring, in: container)
      }
    }
    defer { if !waiters.isEmpty { container.waits.endWaiting(waiters, for: self) } }
    guard let ended = await creation.outcome() else {
      throw .cancelledWait(self, frame: node, in: container)
    }
    return try outcome(ended, node: node, in: container)
  }

  /// What a request that awaited a creation gets: the instance, the creation's error, or `nil`
  /// to start over when a cancelled request abandoned it.
  func outcome(
    _ outcome: AsyncCreation.Outcome, node: AsyncPath, in container: Container
  ) throws(ResolutionError) -> (any Sendable)? {
    switch outcome {
    case .made(let instance): return instance
    case .failed(let error): throw wrap(error, path: node, in: container)
    case .abandoned: return nil
    }
  }

  /// Keeps a persistent instance where later resolves read it without awaiting the task.
  ///
  /// `instance` is what the maker returned: an instance of the bound type.
  func publish(_ instance: Any) {
    asyncState.withLock { _ in
      if isReady { return }
      allocateStorage()
      // Not of the bound type (never, for a factory of it): not published, so every request
      // takes the creation's instance and its edge reports the mismatch.
      guard storage.initialize(fromAny: instance, layout) else { return }
      publishReady()
      // The slot keeps it too: a request that saw no instance a moment ago gets it from there.
    }
  }

  /// The instance a request in `scope` below `path` gets without waiting: a built persistent
  /// one, or the open scope's made instance of a scoped binding.
  ///
  /// Below a container-wide creation (a captor on `path`), a scoped request takes the long way,
  /// where the captive check refuses it.
  func madeInstance(in scope: Scope?, below path: AsyncPath?) -> AsyncInstance {
    if isReady { return .made(storage.loadAny(layout)) }
    guard lifetime.reach == .scope, let scope, !scope.disposals.isClosed, path?.hasCaptor != true
    else {
      return .none
    }
    return scope.disposals.asyncInstance(of: self)
  }

  /// Runs a factory as `node`'s, wrapping its error: inlined, with the factory's closure.
  @inline(__always)
  func run(
    _ node: AsyncPath, in container: Container, _ make: () async throws -> any Sendable
  ) async throws(ResolutionError) -> any Sendable {
    do {
      return try await node.running(make)
    } catch {
      throw wrap(error, path: node, in: container)
    }
  }

  func wrap(
    _ error: any Error, path: AsyncPath, in container: Container
  ) -> ResolutionError {
    failure(error, frame: path, in: container)
  }
}

/// What a synchronous request of an async binding runs (``AnyBinding/resolveKind``): it throws
/// ``ResolutionError/Code/asyncBinding``, which says to await it with `resolveAsync`.
///
/// Not a lifetime: the binding's own lifetime serves its async requests.
final class AsyncOnly: RequestKind {
  override class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    throw .asyncBinding(binding, fallbackTag: fallbackTag, parent: parent, in: container)
  }
}
