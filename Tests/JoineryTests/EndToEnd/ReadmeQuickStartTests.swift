import Joinery
import Testing

// The README's quick start, kept compiling: if this file needs a change, so does the README.
// (This target turns on ExistentialAny, so protocol metatypes are spelled `(any P).self`.)
private protocol HTTPClient: Sendable {}
private final class URLSessionClient: HTTPClient {}
private final class MockClient: HTTPClient {}
private protocol FeedServicing: Sendable {}
private final class FeedService: FeedServicing {
  let client: any HTTPClient
  init(client: any HTTPClient) { self.client = client }
}
private protocol Logger: Sendable {}
private final class ConsoleLogger: Logger {}

private struct NetworkAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind((any HTTPClient).self, lifetime: .persistent, to: URLSessionClient.init)
  }
}

private struct FeedAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.include(NetworkAssembly())  // a diamond of includes registers once
    // Autowired: parameters resolved by type, and checked by build() before anything runs.
    registrar.bind(FeedService.self, lifetime: .persistent, to: FeedService.init(client:))
    registrar.bind((any FeedServicing).self, forwardingTo: FeedService.self)  // same instance
    registrar.bind((any Logger).self) { _ in ConsoleLogger() }  // a closure factory works too
  }
}

private enum App {
  // Sendable and immutable. build() checks the whole graph: a mistake stops start-up here,
  // with every problem listed, instead of surfacing later on some user's screen.
  static let container: Container = {
    do { return try ContainerBuilder(FeedAssembly()).build() } catch {
      fatalError(String(reflecting: error))  // the full report
    }
  }()
}

private struct MockNetworkAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind((any HTTPClient).self, lifetime: .persistent, to: MockClient.init)
  }
}

@Suite("README quick start")
struct ReadmeQuickStartTests {
  @Test("The quick start builds and resolves; the test override wins")
  func quickStart() throws {
    let feed = try App.container.resolve((any FeedServicing).self)
    #expect((feed as? FeedService)?.client is URLSessionClient)
    let container = try ContainerBuilder(FeedAssembly())
      .overriding(with: MockNetworkAssembly())
      .build()
    #expect(try container.resolve(FeedService.self).client is MockClient)
  }
}
