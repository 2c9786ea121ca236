internal import JoineryEngine

/// The creation gate: the lock that makes a shared instance be created exactly once.
///
/// Each shared binding has its own gate, made on first creation (so a binding never resolved
/// costs no lock), so a slow factory only blocks requests for that same binding. The gate
/// records which thread holds it, which turns a re-entrant request into a cycle error; a wait
/// for another thread's creation goes through ``WaitRegistry``, which refuses one that would
/// deadlock.
extension AnyBinding {
  /// Runs `body` holding the gate; waits for another thread that holds it, unless that wait
  /// would never end.
  ///
  /// `body` may hand the gate over to its resolution (``ResolutionContext/holdUntilEnd(_:commit:abandon:)``),
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
