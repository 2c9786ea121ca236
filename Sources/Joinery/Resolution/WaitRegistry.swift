/// Which creations wait for which, across threads and tasks, so that a wait that closes a ring
/// is refused instead of blocking forever.
///
/// One registry serves both engines. A creation is a shared binding being made: by a thread
/// that holds its creation gate (sync), or by a task that claimed its ``AsyncCreation``. A
/// request that must wait for another's creation records that every creation it is itself in
/// the middle of waits for that one — a sync request's chain of frames and the gates its
/// resolution keeps until it ends (``ResolutionContext/creations``), an async request's
/// ``AsyncPath``. A new wait is refused when the awaited creation already waits, directly or
/// through others, for one of the waiting ones: that ring could never end.
///
/// A creation may wait for several others at once (`async let`, task groups): every wait is
/// kept, counted, until it ends. A request that is in the middle of no creation blocks none
/// and records nothing.
///
/// One registry is shared by a container and the children made from it, so a ring through a
/// parent's and a child's bindings is seen too. Touched only when a creation is waited for,
/// never on the fast path.
///
/// A sync creation never waits for an async one (a sync factory cannot await), and holds no
/// gate across a suspension, so the rings the registry sees are all sync or all async; keeping
/// them in one graph keeps one definition of a wait for both engines.
final class WaitRegistry: Sendable {
  private struct Wait {
    let awaited: AnyBinding
    var count: Int
  }

  /// For each waiting creation, what it waits for.
  private let waits = Protected<[ObjectIdentifier: [ObjectIdentifier: Wait]]>([:])

  /// Records that the creations of `waiters` wait for `awaited`; returns the ring, awaited
  /// first, if that wait could never end (nothing is recorded then).
  func beginWaiting(_ waiters: [AnyBinding], for awaited: AnyBinding) -> [BindingKey]? {
    waits.withLock { waits in
      let blocked = Set(waiters.map(ObjectIdentifier.init))
      // Depth-first over every recorded wait from `awaited`: does it reach a blocked creation?
      var pending: [(node: AnyBinding, ring: [BindingKey])] = [(awaited, [awaited.key])]
      var visited: Set<ObjectIdentifier> = []
      while let (node, ring) = pending.popLast() {
        let id = ObjectIdentifier(node)
        if blocked.contains(id) { return ring }
        guard visited.insert(id).inserted else { continue }
        for wait in (waits[id] ?? [:]).values {
          pending.append((wait.awaited, ring + [wait.awaited.key]))
        }
      }
      for waiter in waiters {
        waits[ObjectIdentifier(waiter), default: [:]][
          ObjectIdentifier(awaited), default: Wait(awaited: awaited, count: 0)
        ].count += 1
      }
      return nil
    }
  }

  /// Ends the waits `beginWaiting` recorded.
  func endWaiting(_ waiters: [AnyBinding], for awaited: AnyBinding) {
    waits.withLock { waits in
      let target = ObjectIdentifier(awaited)
      for waiter in waiters {
        let id = ObjectIdentifier(waiter)
        guard var edges = waits[id], var wait = edges[target] else { continue }
        wait.count -= 1
        edges[target] = wait.count > 0 ? wait : nil
        waits[id] = edges.isEmpty ? nil : edges
      }
    }
  }
}
