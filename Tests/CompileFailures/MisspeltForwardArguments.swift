// Must not compile, with one clear error: a misspelt type in ForwardArguments (issue 57; Swift 6.3 said
// "failed to produce diagnostic" beside it while two overloads shared the name). `Feed`,
// `Model` and `Service` are in Prelude/Fixtures.swift.
// expected: cannot find 'Misspelt' in scope
import Joinery

func use(_ container: Container, _ registrar: inout Registrar) async throws {
  registrar.bind(Service.self, forwardingTo: Misspelt.self, arguments: Int.self)
}
