import Joinery
import Testing

private protocol HTTPClient: Sendable {}
private final class URLSessionClient: HTTPClient {}
private final class FeedService: Sendable {
  init(client: any HTTPClient) {}
}
private final class App: Sendable {
  init(feed: FeedService) {}
}

private struct AppAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(App.self) { resolver in App(feed: try resolver.resolve()) }
    registrar.bind(FeedService.self, lifetime: .persistent) { resolver in
      FeedService(client: try resolver.resolve())
    }
    registrar.bind(URLSessionClient.self, lifetime: .persistent) { _ in URLSessionClient() }
    registrar.bind((any HTTPClient).self, tag: "mock") { _ in URLSessionClient() }
  }
}

@Suite("Resolution errors")
struct ResolutionErrorTests {
  /// Validation and Diagnostics: "a plain `catch` already has a ResolutionError", as written.
  @Test("A plain catch around a resolve has the typed ResolutionError")
  func plainCatchIsTyped() async throws {
    final class Counter {}
    let container = try ContainerBuilder().build()
    var seen: (ResolutionError.Code, [String])?
    do {
      _ = try container.resolve(Counter.self)
    } catch {
      seen = (error.code, error.path.map { "\($0.requested.type)" })
    }
    #expect(seen?.0 == .missingBinding)
    #expect(seen?.1 == ["Counter"])
  }

  @Test("A missing binding names the type, the path, the bindings on it and near misses")
  func missingReport() throws {
    let container = try ContainerBuilder(AppAssembly()).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) { try container.resolve(App.self) }
    #expect(error.code == .missingBinding)
    #expect(error.requested == BindingKey((any HTTPClient).self))
    #expect(
      error.description == "No binding for HTTPClient. [path: App → FeedService → HTTPClient]")
    let expected = """
      ResolutionError.missingBinding: No binding for HTTPClient.
      Resolution path: App → FeedService → HTTPClient
        App          [ephemeral] AppAssembly at JoineryTests/ResolutionErrorTests.swift:15
        FeedService  [persistent] AppAssembly at JoineryTests/ResolutionErrorTests.swift:16
        HTTPClient   (no binding)
      Near misses:
        - HTTPClient is bound with tag "mock" — AppAssembly at JoineryTests/ResolutionErrorTests.swift:20
        - URLSessionClient is bound — AppAssembly at JoineryTests/ResolutionErrorTests.swift:19
      To fix:
        - Bind HTTPClient in the assembly of its feature: registrar.bind(HTTPClient.self) { resolver in … }.
        - Or request the existing binding: resolve(HTTPClient.self, tag: "mock").
        - Or, if you meant URLSessionClient, request that type, or forward HTTPClient to it: registrar.bind(HTTPClient.self, forwardingTo: URLSessionClient.self).
        - Or change FeedService's factory not to need HTTPClient.
      """
    #expect(error.debugDescription == expected)
  }

  @Test("A failed resolve is cheap: nothing is formatted until the report is read")
  func failureIsLazy() throws {
    let container = try ContainerBuilder(AppAssembly()).buildOrRecord()
    for _ in 0..<1_000 {
      #expect(throws: ResolutionError.self) { try container.resolve(Double.self) }
    }
  }

  @Test("resolve(T?.self) is nil only when nothing is bound; factory errors still throw")
  func optionalForm() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self) { _ in throw TestFailure(message: "boom") }
        registrar.bind(Int.self, instance: 7)
      }
    ).buildOrRecord()
    #expect(try container.resolve(String?.self) == nil)
    #expect(try container.resolve(Int?.self) == 7)
    #expect(try container.resolve(Int?.self, tag: "x") == 7)
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(ServiceC?.self)
    }
    #expect(error.code == .factoryFailed)
  }

  @Test("A type bound under two tags is one near miss's advice, not two identical lines")
  func nearMissAdviceOnce() throws {
    final class Logger: Sendable {}
    final class Loger: Sendable {}
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Logger.self, tag: "audit") { _ in Logger() }
      registrar.bind(Logger.self, tag: "debug") { _ in Logger() }
    }.build()
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Loger.self) }
    #expect(error?.nearMisses.count == 2, "both bindings are near misses")
    let report = error.map { String(reflecting: $0) } ?? ""
    #expect(report.components(separatedBy: "Or, if you meant Logger").count == 2, "\(report)")
  }
}
