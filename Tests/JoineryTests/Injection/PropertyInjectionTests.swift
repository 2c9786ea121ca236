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
