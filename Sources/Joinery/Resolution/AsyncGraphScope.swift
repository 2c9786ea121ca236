/// The `graph` instances of one top-level `resolveAsync`: each binding's creation is made once,
/// by the first request for it within the resolution, and awaited by the others.
final class AsyncGraphScope: Sendable {
  private let creations = Protected<[ObjectIdentifier: AsyncCreation]>([:])
  /// The synchronous `graph` instances of this unit, made on first use.
  private let graph = Protected<_GraphMemory?>(nil)
  /// Held while one of the unit's synchronous resolutions runs (``alone(_:)``).
  private let resolving = Protected(())
  /// The thread holding `resolving`, or 0.
  private let resolvingThread = Protected<UInt>(0)

  /// Runs one synchronous resolution of this unit, while no other runs.
  ///
  /// The unit's tasks (`async let` siblings, say) may resolve at the same moment; one at a
  /// time, each starts from the `graph` instances of those before it, so that a synchronous
  /// `graph` binding has one instance in the unit. A resolution never suspends, so the wait is
  /// short and the lock is released by the thread that took it. The lock is taken before any
  /// creation gate of the resolution, so a thread holding a gate never waits for it; a
  /// resolution that starts another one of the unit on its own thread (a factory awaiting
  /// nothing that resolves through the unit's resolver) runs it without waiting.
  func alone<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    let thread = ThreadIdentity.current
    if resolvingThread.withLock({ $0 }) == thread { return try body() }
    return try resolving.withLock { _ throws(E) -> R in
      resolvingThread.withLock { $0 = thread }
      defer { resolvingThread.withLock { $0 = 0 } }
      return try body()
    }
  }

  /// What the synchronous resolves of this unit share of their `graph` instances: a top-level
  /// `resolveAsync` is one resolution, so a synchronous `graph` binding has one instance in it,
  /// however many synchronous resolves reach it, held until the unit ends (values too).
  func synchronousGraph() -> _GraphMemory {
    graph.withLock { graph in
      if let memory = graph { return memory }
      let memory = _GraphMemory(holding: true)
      graph = memory
      return memory
    }
  }

  /// The unit has ended: the `Lazy` values made in it keep only weak memories of its instances.
  deinit { graph.withLock { $0 }?.endHolding() }

  /// The creation of `binding`'s instance in this unit, and whether the caller just claimed it
  /// (and must run it) rather than found it under way or made.
  func claim(_ binding: AnyBinding) -> (creation: AsyncCreation, isNew: Bool) {
    creations.withLock { creations in
      if let existing = creations[ObjectIdentifier(binding)] { return (existing, false) }
      let made = AsyncCreation()
      creations[ObjectIdentifier(binding)] = made
      return (made, true)
    }
  }

  /// Forgets a failed or abandoned creation, so that a later request in the same unit tries
  /// again.
  func forget(_ binding: AnyBinding, ifItIs creation: AsyncCreation) {
    creations.withLock { creations in
      if creations[ObjectIdentifier(binding)] === creation {
        creations[ObjectIdentifier(binding)] = nil
      }
    }
  }
}
