import Joinery

// Everything here is @MainActor by default: the view model's initializer is isolated, with no
// `nonisolated init`.
final class FeedViewModel {
  let client: APIClient
  var title: String { "Feed via \(client.name)" }
  init(client: APIClient) { self.client = client }
}

// A service meant for any thread opts out of the default isolation.
nonisolated final class APIClient: Sendable {
  let name = "api"
}

struct AppAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(APIClient.self, lifetime: .persistent) { _ in APIClient() }
    registrar.bindMainActor(FeedViewModel.self, to: FeedViewModel.init(client:))
  }
}

let container = try ContainerBuilder(AppAssembly()).build()
let model = try container.resolve(FeedViewModel.self)
print(model.title)
precondition(model.title == "Feed via api")
