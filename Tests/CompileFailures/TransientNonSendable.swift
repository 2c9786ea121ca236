// Must not compile: a transient (weakly shared) instance is shared between threads too.
// expected: type 'Tally' does not conform to the 'Sendable' protocol
import Joinery

final class Tally {
  var count = 0
}

struct Wiring: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(Tally.self, lifetime: .transient, to: Tally.init)
  }
}
