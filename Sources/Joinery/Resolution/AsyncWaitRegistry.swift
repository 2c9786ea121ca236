/// Which async creations wait for which, across tasks, so that a wait closing a ring is refused.
///
/// A creation another task is making is awaited, not made again. Two creations that await each
/// other from different tasks would wait forever; the same cycle within one task (or its child
/// tasks) is seen by its ``AsyncPath``. Every binding on the waiting request's path is recorded
/// as waiting for the awaited binding (each of them is blocked until it ends), and a new wait is
/// refused when the awaited binding already waits, directly or through others, for one of them.
///
/// A creation may wait for several others at once (`async let`, task groups): every wait is
/// kept, counted, until it ends. Touched only when a creation is awaited, never on the fast
/// path.
final class AsyncWaitRegistry: Sendable {
  private struct Wait {
    let awaited: AnyBinding
    var count: Int
  }

  /// For each waiting binding, what it waits for.
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
