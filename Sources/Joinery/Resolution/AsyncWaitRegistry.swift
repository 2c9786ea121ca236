/// Which async creations wait for which, across tasks, so that a wait closing a ring is refused.
///
/// A persistent async binding is created once, in a task of its own that every request awaits.
/// Two such creations that await each other from different tasks would wait forever; the same
/// cycle within one task is seen by its ``AsyncPath``. Every binding on the waiting request's
/// path is recorded as waiting for the awaited binding (each of them is blocked until it ends),
/// and a new wait is refused when the awaited binding already waits, directly or through
/// others, for one of them. Touched only when a creation is awaited, never on the fast path.
final class AsyncWaitRegistry: Sendable {
  private let waits = Protected<[ObjectIdentifier: AnyBinding]>([:])

  /// Records that the creations of `waiters` wait for `awaited`; returns the ring, awaited
  /// first, if that wait could never end (nothing is recorded then).
  func beginWaiting(_ waiters: [AnyBinding], for awaited: AnyBinding) -> [BindingKey]? {
    waits.withLock { waits in
      let blocked = Set(waiters.map(ObjectIdentifier.init))
      var ring = [awaited.key]
      var current: AnyBinding? = awaited
      for _ in 0...waits.count {
        guard let node = current else { break }
        if blocked.contains(ObjectIdentifier(node)) { return ring }
        current = waits[ObjectIdentifier(node)]
        if let next = current { ring.append(next.key) }
      }
      for waiter in waiters { waits[ObjectIdentifier(waiter)] = awaited }
      return nil
    }
  }

  /// Ends the waits `beginWaiting` recorded.
  func endWaiting(_ waiters: [AnyBinding], for awaited: AnyBinding) {
    waits.withLock { waits in
      for waiter in waiters where waits[ObjectIdentifier(waiter)] === awaited {
        waits[ObjectIdentifier(waiter)] = nil
      }
    }
  }
}
