/// The `graph` instances of one top-level `resolveAsync`: each async `graph` binding's creation,
/// started once and awaited by every request for it within that resolve.
final class AsyncGraphScope: Sendable {
  private let creations = Protected<[ObjectIdentifier: Task<any Sendable, any Error>]>([:])

  /// The creation of `binding`'s instance in this resolve, started by `start` the first time.
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

  /// Forgets a failed creation, so that a later request in the same resolve tries again.
  func forget(_ binding: AnyBinding, ifItIs task: Task<any Sendable, any Error>) {
    creations.withLock { creations in
      if creations[ObjectIdentifier(binding)] == task { creations[ObjectIdentifier(binding)] = nil }
    }
  }
}
