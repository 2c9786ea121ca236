/// The creation gate: the lock that makes a shared instance be created exactly once.
///
/// Each shared binding has its own gate, made on first creation (so a binding never resolved
/// costs no lock), so a slow factory only blocks requests for that same binding. The gate
/// records which thread holds it, which turns a re-entrant request into a cycle error and lets
/// ``WaitRegistry`` refuse a wait that would deadlock.
extension AnyBinding {
  /// Runs `body` holding the gate; waits for another thread that holds it, unless that wait
  /// would never end.
  func withCreationLock<R>(
    for binding: AnyBinding, fallbackTag: RequestedTag?, parent: borrowing ResolutionContext,
    in container: Container, _ body: () throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    let me = ThreadIdentity.current
    let mutex = _lazyLock(2)
    if !mutex.tryLock() {
      if creatingThread == me {
        throw .reentrantCreation(binding, fallbackTag: fallbackTag, parent: parent, in: container)
      }
      try container.waits.beginWaiting(
        thread: me, for: binding, fallbackTag: fallbackTag, parent: parent, in: container)
      mutex.lock()
      container.waits.endWaiting(thread: me)
    }
    _storeRelaxed(1, me)
    defer {
      _storeRelaxed(1, 0)
      mutex.unlock()
    }
    return try body()
  }

  /// Runs `body` if no thread holds the gate; returns whether it ran.
  func ifCreationLockAvailable(_ body: () -> Void) -> Bool {
    let mutex = _lazyLock(2)
    guard mutex.tryLock() else { return false }
    defer { mutex.unlock() }
    body()
    return true
  }
}

/// Which thread waits for which binding, so that a wait that closes a ring is refused.
///
/// Touched only when a thread finds a gate taken, never on the fast path.
final class WaitRegistry: Sendable {
  private let waits = Protected<[UInt: AnyBinding]>([:])

  func beginWaiting(
    thread: UInt, for binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing ResolutionContext,
    in container: Container
  ) throws(ResolutionError) {
    let ring: [BindingKey]? = waits.withLock { waits in
      var chain = [binding.key]
      var target = binding
      for _ in 0...waits.count {
        let holder = target.creatingThread
        if holder == 0 { break }
        if holder == thread { return chain }
        guard let next = waits[holder] else { break }
        chain.append(next.key)
        target = next
      }
      waits[thread] = binding
      return nil
    }
    if let ring {
      throw .crossThreadCycle(
        binding, fallbackTag: fallbackTag, parent: parent, waitingChain: ring, in: container)
    }
  }

  func endWaiting(thread: UInt) {
    waits.withLock { _ = $0.removeValue(forKey: thread) }
  }
}
