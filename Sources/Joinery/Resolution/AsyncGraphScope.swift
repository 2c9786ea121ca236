/// Async creations shared by one unit of work.
///
/// The unit is one top-level `resolveAsync` (its `graph` instances) or one ``Scope`` (its
/// `scoped` async instances). Each binding's creation is started once and awaited by every
/// request for it within that unit.
final class AsyncGraphScope: Sendable {
  private let creations = Protected<[ObjectIdentifier: Task<any Sendable, any Error>]>([:])
  /// The bindings whose creation finished successfully (for ``Scope/hasInstance(of:tag:)``),
  /// and the synchronous `graph` instances of this unit (made on first use).
  private let made = Protected<(set: Set<ObjectIdentifier>, graph: _GraphMemory?)>(([], nil))

  /// What the synchronous resolves of this unit share of their `graph` instances: a top-level
  /// `resolveAsync` is one resolution, so a synchronous `graph` binding has one instance in it,
  /// however many synchronous resolves reach it.
  func synchronousGraph() -> _GraphMemory {
    made.withLock { state in
      if let memory = state.graph { return memory }
      let memory = _GraphMemory()
      state.graph = memory
      return memory
    }
  }

  /// The creation of `binding`'s instance in this unit, started by `start` the first time.
  func task(
    for binding: AnyBinding, start: () -> Task<any Sendable, any Error>
  ) -> Task<any Sendable, any Error> {
    creations.withLock { creations in
      if let existing = creations[ObjectIdentifier(binding)] { return existing }
      let made = start()
      creations[ObjectIdentifier(binding)] = made
      return made
    }
  }

  /// Forgets a failed creation, so that a later request in the same unit tries again.
  func forget(_ binding: AnyBinding, ifItIs task: Task<any Sendable, any Error>) {
    creations.withLock { creations in
      if creations[ObjectIdentifier(binding)] == task { creations[ObjectIdentifier(binding)] = nil }
    }
  }

  /// Records that `binding`'s creation succeeded.
  func markMade(_ binding: AnyBinding) {
    _ = made.withLock { $0.set.insert(ObjectIdentifier(binding)) }
  }

  /// Whether `binding`'s creation succeeded in this unit.
  func hasMade(_ binding: AnyBinding) -> Bool {
    made.withLock { $0.set.contains(ObjectIdentifier(binding)) }
  }
}
