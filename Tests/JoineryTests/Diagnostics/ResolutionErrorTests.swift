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

  @Test("A missing Provider or Lazy is reported as the type it wraps, at build and at resolve")
  func missingWrappedDependency() throws {
    final class Widget: Sendable {}
    final class Panel: Sendable {
      init(widget: Lazy<Widget>) {}
    }
    let build = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(Panel.self, to: Panel.init(widget:))
      }.build()
    }
    let report = build.map { String(reflecting: $0) } ?? ""
    #expect(build?.diagnostics.map(\.code) == [.missingDependency], "\(report)")
    // The Lazy is made from Widget's binding: Widget is what is missing.
    #expect(report.contains("Panel depends on Widget, which is not bound"), "\(report)")
    let container = try ContainerBuilder().build()
    let error = #expect(throws: ResolutionError.self) {
      try container.resolve(Provider<Widget>.self)
    }
    #expect(error?.code == .missingBinding)
    let advice = error.map { String(reflecting: $0) } ?? ""
    #expect(advice.contains("registrar.bind(Widget.self)"), "\(advice)")
  }

  @Test(
    "Types with similar names are near misses: two edits, containment, the last word; in order",
    arguments: [
      ("Loger", ["Blogger", "Lager", "Logger"]),  // 1, 2 and 1 edits away
      ("Lagr", ["Lager"]),  // Logger is 3 edits away, Blogger 4
      ("Analytics", ["AnalyticsTracker"]),  // contained
      ("HTTPClient", ["URLSessionClient"]),  // the same last word
      ("Box<Int>", ["Box<Int16>", "Box<Int32>", "Box<Int64>", "Box<Int8>", "Box<UInt8>"]),
    ])
  func similarNames(requested: String, expected: [String]) throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Similar.Logger.self, instance: .init())
      registrar.bind(Similar.Blogger.self, instance: .init())
      registrar.bind(Similar.Lager.self, instance: .init())
      registrar.bind(Similar.AnalyticsTracker.self, instance: .init())
      registrar.bind(Similar.URLSessionClient.self, instance: .init())
      registrar.bind(Similar.Legume.self, instance: .init())
      for integer in Similar.integers { integer.bindBox(in: &registrar) }
    }.build()
    let wanted: Any.Type =
      switch requested {
      case "Loger": Similar.Loger.self
      case "Lagr": Similar.Lagr.self
      case "Analytics": Similar.Analytics.self
      case "HTTPClient": Similar.HTTPClient.self
      default: Similar.Box<Int>.self
      }
    let error = try #require(Similar.missing(wanted, in: container))
    #expect(error.nearMisses.map { "\($0.binding.key.type)" } == expected)
  }
}

/// Types whose names are near one another, for ``ResolutionErrorTests/similarNames(requested:expected:)``.
private enum Similar {
  final class Logger: Sendable {}
  final class Blogger: Sendable {}
  final class Lager: Sendable {}
  final class AnalyticsTracker: Sendable {}
  final class URLSessionClient: Sendable {}
  final class Legume: Sendable {}
  final class Box<Value>: Sendable {}
  final class Loger {}
  final class Lagr {}
  final class Analytics {}
  final class HTTPClient {}
  static var integers: [any BoxBinding.Type] {
    [
      Int8.self, Int16.self, Int32.self, Int64.self, UInt8.self, UInt16.self, UInt32.self,
      UInt64.self, Double.self, Float.self,
    ]
  }

  static func missing(_ type: Any.Type, in container: Container) -> ResolutionError? {
    func resolve<T>(_: T.Type) -> ResolutionError? {
      do {
        _ = try container.resolve(T.self)
        return nil
      } catch {
        return error
      }
    }
    return _openExistential(type, do: resolve)
  }
}

private protocol BoxBinding: SendableMetatype {}
extension BoxBinding {
  static func bindBox(in registrar: inout Registrar) {
    registrar.bind(Similar.Box<Self>.self, instance: .init())
  }
}
extension Int8: BoxBinding {}
extension Int16: BoxBinding {}
extension Int32: BoxBinding {}
extension Int64: BoxBinding {}
extension UInt8: BoxBinding {}
extension UInt16: BoxBinding {}
extension UInt32: BoxBinding {}
extension UInt64: BoxBinding {}
extension Double: BoxBinding {}
extension Float: BoxBinding {}
