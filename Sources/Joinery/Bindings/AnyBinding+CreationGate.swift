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
    let mutex = _lazyLock(0)
    if !mutex.tryLock() {
      if mutex.owner == me {
        throw .reentrantCreation(binding, fallbackTag: fallbackTag, parent: parent, in: container)
      }
      try container.waits.beginWaiting(
        thread: me, for: binding, fallbackTag: fallbackTag, parent: parent, in: container)
      mutex.lock()
      container.waits.endWaiting(thread: me)
    }
    mutex.owner = me
    defer {
      mutex.owner = 0
      mutex.unlock()
    }
    if binding.lifetimeKind.endurance > 0 { return try _ThreadState.creatingShared(body) }
    return try body()
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
