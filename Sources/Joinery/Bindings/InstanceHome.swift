public import JoineryEngine

/// Where one kept instance lives: memory for it, whether it is published, and the creation gate
/// that makes it exactly once.
///
/// A binding is the home of the instance it keeps for the container (persistent, cached,
/// transient; a forward's conversion), so that reading a built one touches one object. A scope
/// keeps one home for each scoped binding it used (``DisposalList``), and the binding's
/// creation (``AnyBinding/createKept(into:in:parent:fallbackTag:home:disposals:)``) makes
/// the instance there: one binding, as many homes as scopes.
///
/// The instance is written under the gate and published by ``isReady`` (release/acquire), then
/// only read; hence `@unchecked Sendable`.
@usableFromInline
class InstanceHome: _AtomicWordsHolder, @unchecked Sendable {
  /// Read and written only atomically (``_AtomicWordsHolder``): bit 0 is the ready flag
  /// (``isReady``); the bits above the low four hold the creation gate, the lock that makes
  /// creation single-flight, made on first creation.
  ///
  /// First, as the protocol requires.
  @usableFromInline final var atomicWords: UInt = 0
  /// Where `storage` keeps an instance that fits in one word: a class instance, a small value.
  ///
  /// Written only through `storage` (``_AtomicWordsHolder/_allocate(_:_:inlineAt:)``), it saves
  /// the instance a heap allocation. Second, at word 1.
  private final var inlineInstance: UInt = 0
  /// The kept type's layout; a resolve that is not specialized reads whether it is one class
  /// reference here rather than asking the runtime.
  @usableFromInline final let layout: _ValueLayout
  /// Memory for one instance of the kept type.
  // Allocated by the first creation, under the creation gate, and published with the instance;
  // then only read. The instance is written through its address, under the lifetime's own
  // synchronization.
  @usableFromInline @safe @exclusivity(unchecked) final var storage = _InstanceStorage()

  init(layout: _ValueLayout) {
    self.layout = layout
    _checkAtomicWordsLayout(&atomicWords)
    _checkAtomicWordsLayout(&inlineInstance, at: 1)
  }

  deinit {
    if storage.isAllocated {
      if isReady { storage.destroy(layout) }
      _deallocate(&storage, inlineAt: 1)
    }
    _releaseLazyLock(0)
  }

  /// Whether `storage` holds an instance that never changes again: a built persistent or
  /// scoped instance, or a forward's converted one.
  ///
  /// Resolves then read it without a lock.
  @inlinable @inline(__always)
  final var isReady: Bool { _loadAcquiring(0) & 1 != 0 }

  /// Publishes the instance in `storage`: every thread that sees ``isReady`` sees it whole.
  final func publishReady() { _setReleasing(0, 1) }

  /// Memory for one instance, allocated on first use.
  final func allocateStorage() { _allocate(&storage, layout, inlineAt: 1) }
}

/// The creation gate: the lock that makes a kept instance be created exactly once.
///
/// Each home has its own gate, made on first creation (so a binding never resolved costs no
/// lock), so a slow factory only blocks requests for that same instance. The gate records which
/// thread holds it, which turns a re-entrant request into a cycle error; a wait for another
/// thread's creation goes through ``WaitRegistry``, which refuses one that would deadlock.
///
/// The registry knows creations by binding, not by home: a ring of waits between homes is one
/// between their bindings too, so none is missed; and two homes of one binding (two scopes)
/// that wait for each other through other bindings are a cycle among those bindings, which a
/// single scope would meet as one.
extension InstanceHome {
  /// Runs `body` holding the gate while `binding` makes the instance; waits for another thread
  /// that holds it, unless that wait would never end.
  ///
  /// `body` may hand the gate over to its resolution (``ResolutionContext/holdUntilEnd(_:home:object:commit:abandon:)``),
  /// which then keeps it until its `initCompleted` steps ran: `body` returns `true` for that.
  func withCreationLock(
    for binding: AnyBinding, fallbackTag: RequestedTag?, parent: borrowing ResolutionContext,
    in container: Container, _ body: () throws(ResolutionError) -> Bool
  ) throws(ResolutionError) {
    let me = _ThreadIdentity.current
    let mutex = _lazyLock(0)
    if !mutex.tryLock() {
      if mutex.owner == me {
        throw .reentrantCreation(binding, fallbackTag: fallbackTag, parent: parent, in: container)
      }
      // The creations this thread is in the middle of wait for this one: refuse a wait that
      // closes a ring with creations on other threads, which would never end.
      let waiters = parent.joined().creations
      if !waiters.isEmpty,
        let ring = container.waits.beginWaiting(waiters, for: binding)
      {
        throw .waitRing(
          binding, fallbackTag: fallbackTag, parent: parent, waitingChain: ring, in: container)
      }
      mutex.lock()
      if !waiters.isEmpty { container.waits.endWaiting(waiters, for: binding) }
    }
    mutex.owner = me
    var handedOver = false
    defer {
      if !handedOver {
        mutex.owner = 0
        mutex.unlock()
      }
    }
    if binding.lifetime.endurance > 0 {
      handedOver = try _ThreadState.creatingShared(body)
    } else {
      handedOver = try body()
    }
  }

  /// Releases the gate a resolution kept (``withCreationLock(for:fallbackTag:parent:in:_:)``'s
  /// `body` returned `true`), on the thread that took it.
  func releaseHandedOverGate() {
    guard let mutex = _existingLock(0) else { return }
    mutex.owner = 0
    mutex.unlock()
  }

  /// Runs `body` if no thread holds the gate; returns whether it ran.
  func ifCreationLockAvailable(_ body: () -> Void) -> Bool {
    let mutex = _lazyLock(0)
    guard mutex.tryLock() else { return false }
    defer { mutex.unlock() }
    body()
    return true
  }
}
