// Must not compile: a type that is not `Sendable` cannot be shared by the container.
// expected: type 'Tally' does not conform to the 'Sendable' protocol
import Joinery

final class Tally {
  var count = 0
}

struct Wiring: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(Tally.self, lifetime: .persistent) { _ in Tally() }
  }
}
