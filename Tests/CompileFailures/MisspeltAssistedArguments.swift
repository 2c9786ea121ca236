// Must not compile, with one clear error: a misspelt type in AssistedArguments (issue 57; Swift 6.3 said
// "failed to produce diagnostic" beside it while two overloads shared the name).
// expected: cannot find 'Misspelt' in scope
import Joinery

final class Feed: Sendable {}
@MainActor final class Model {
  init(id: Int, feed: Feed) {}
}
final class Service: Sendable {
  init(feed: Feed) {}
}

func use(_ container: Container, _ registrar: inout Registrar) async throws {
  registrar.bind(Service.self, arguments: Misspelt.self, to: Service.init(feed:))
}
