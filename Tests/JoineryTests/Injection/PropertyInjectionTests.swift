import Joinery
import Testing

private final class Feed: Sendable {}
private final class Log: Sendable {
  let channel: String
  init(channel: String) { self.channel = channel }
}

// A class whose initializer the app does not control (a framework makes it).
private final class LegacyScreen {
  var feed: Feed?
  var log: Log?
  var untouched = "as made"
}

// Non-optional properties, with placeholders the container replaces.
private final class Dashboard {
  var log = Log(channel: "placeholder")
  var fallback = Log(channel: "placeholder")
}

@Suite("Key-path injection")
struct PropertyInjectionTests {
  @Test("Non-optional properties: untagged, tagged, and a tag falling back to untagged")
  func nonOptional() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Log.self) { _ in Log(channel: "main") }
        registrar.bind(Log.self, tag: "audit") { _ in Log(channel: "audit") }
        registrar.injectProperties(of: Dashboard.self) { properties in
          properties.inject(\.log, tag: "audit")
          properties.inject(\.fallback, tag: "metrics")  // no such tag: the untagged binding
        }
      }
    ).buildOrRecord()
    let dashboard = Dashboard()
    try container.inject(into: dashboard)
    #expect(dashboard.log.channel == "audit")
    #expect(dashboard.fallback.channel == "main")
  }

  @Test("inject(into:) fills the declared properties of an existing object, with tags")
  func fills() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Feed.self, lifetime: .persistent) { _ in Feed() }
        registrar.bind(Log.self, tag: "audit") { _ in Log(channel: "audit") }
        registrar.injectProperties(of: LegacyScreen.self) { properties in
          properties.inject(\.feed)
          properties.inject(\.log, tag: "audit")
        }
      }
    ).buildOrRecord()
    let screen = LegacyScreen()
    try container.inject(into: screen)
    #expect(screen.feed === (try container.resolve(Feed.self)))
    #expect(screen.log?.channel == "audit")
    #expect(screen.untouched == "as made")
  }

  @Test("An injected property whose type is not bound fails the build")
  func validated() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.injectProperties(of: LegacyScreen.self) { properties in
            properties.inject(\.feed)
          }
        }
      ).build()
    }
    #expect(
      error.diagnostics.map(\.message) == [
        "An injected property of LegacyScreen needs Feed, which is not bound."
      ])
  }

  @Test("Injecting into a type nothing was declared for throws")
  func undeclared() throws {
    let container = try ContainerBuilder().build()
    let error = try #require(throws: ResolutionError.self) {
      try container.inject(into: LegacyScreen())
    }
    #expect(error.code == .missingBinding)
  }
}

@MainActor private final class Toolbar {}
private final class Session: Sendable {}

// An object a framework makes, holding a main-actor view and two uses of one `graph` session.
private final class Controller {
  var toolbar: Toolbar?
  var session: Session?
  var sameSession: Session?
}

@Suite("inject(into:) is one resolution in the caller's isolation")
struct InjectionResolutionTests {
  private func container() throws -> Container {
    try ContainerBuilder()
      .adding { registrar in
        registrar.bindMainActor(Toolbar.self) { _ in Toolbar() }
        registrar.bind(Session.self, lifetime: .graph) { _ in Session() }
        registrar.injectProperties(of: Controller.self) { properties in
          properties.inject(\.toolbar)
          properties.inject(\.session)
          properties.inject(\.sameSession)
        }
      }
      .build()
  }

  @Test("Declared properties share their graph instances, as one resolve's parameters do")
  func declaredShareGraph() throws {
    let container = try ContainerBuilder()
      .adding { registrar in
        registrar.bind(Session.self, lifetime: .graph) { _ in Session() }
        registrar.injectProperties(of: Controller.self) { properties in
          properties.inject(\.session)
          properties.inject(\.sameSession)
        }
      }
      .build()
    let controller = Controller()
    try container.inject(into: controller)
    #expect(controller.session != nil)
    #expect(controller.session === controller.sameSession)
  }

  /// Swift Testing runs `@MainActor` tests off the main thread on Linux: only the caller's
  /// static isolation says that main-actor bindings may be made.
  @Test("From main-actor code, both forms make main-actor bindings")
  @MainActor
  func mainActorCaller() throws {
    let container = try container()
    let controller = Controller()
    try container.inject(into: controller)
    #expect(controller.toolbar != nil)
    let other = Controller()
    try container.inject(into: other) { resolver, other in
      other.toolbar = try resolver.resolve(Toolbar.self)
      other.session = try resolver.resolve(Session.self)
      other.sameSession = try resolver.resolve(Session.self)
    }
    #expect(other.toolbar != nil)
    #expect(other.session === other.sameSession)
  }

  @Test("Off the main actor, a main-actor property is refused, never trapped")
  func offMainActor() async throws {
    let container = try container()
    let code = await Task.detached { () -> ResolutionError.Code? in
      do throws(ResolutionError) {
        try container.inject(into: Controller())
        return nil
      } catch {
        return error.code
      }
    }.value
    #expect(code == .mainActorRequired)
  }
}
