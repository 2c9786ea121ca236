// An async resolveAllAsync's predicate runs off the caller's actor: reading the caller's
// main-actor state in it must not compile (it would be a data race), as Swift would let an
// optional non-Sendable closure through.
// expected: main actor-isolated property 'wanted' can not be referenced from a Sendable closure
import Joinery

protocol Plugin: Sendable {}

@MainActor final class Screen {
  var wanted = true

  func load(_ container: Container) async throws -> [any Plugin] {
    try await container.resolveAllAsync((any Plugin).self) { _ in self.wanted }
  }
}
