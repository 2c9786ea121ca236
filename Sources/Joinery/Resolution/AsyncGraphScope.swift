/// The `graph` instances of one top-level `resolveAsync`: each binding's creation is made once,
/// by the first request for it within the resolution, and awaited by the others.
final class AsyncGraphScope: Sendable {
  private let creations = Protected<[ObjectIdentifier: AsyncCreation]>([:])
  /// The synchronous `graph` instances of this unit, made on first use.
  private let graph = Protected<_GraphMemory?>(nil)

  /// What the synchronous resolves of this unit share of their `graph` instances: a top-level
  /// `resolveAsync` is one resolution, so a synchronous `graph` binding has one instance in it,
  /// however many synchronous resolves reach it.
  func synchronousGraph() -> _GraphMemory {
    graph.withLock { graph in
      if let memory = graph { return memory }
      let memory = _GraphMemory()
      graph = memory
      return memory
    }
  }

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
