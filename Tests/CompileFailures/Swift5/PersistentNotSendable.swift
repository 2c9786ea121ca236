// In Swift 5 language mode: with StrictConcurrency, binding a type that is not Sendable
// persistent is a warning on the bind line, as the README says; without it, nothing is said.
// expected warning: type 'Tally' does not conform to the 'Sendable' protocol
import Joinery

final class Tally { var count = 0 }

func declare(_ registrar: inout Registrar) {
  registrar.bind(Tally.self, lifetime: .persistent, to: Tally.init)
}
