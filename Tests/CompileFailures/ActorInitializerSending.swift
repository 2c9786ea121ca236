// Must not compile: an actor's initializer takes a value that is not Sendable into the actor.
// The Migrating guide quotes this error and names the fix (make `API` Sendable).
// expected: sending 'api' risks causing data races
// stage: sil
import Joinery

final class API { init() {} }
actor Store {
  let api: API
  init(api: API) { self.api = api }
}

func declare(_ registrar: inout Registrar) {
  registrar.bind(API.self, to: API.init)
  registrar.bind(Store.self, lifetime: .persistent, to: Store.init(api:))
}
