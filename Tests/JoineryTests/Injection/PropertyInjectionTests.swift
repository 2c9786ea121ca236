import Joinery
import Testing

@MainActor private final class Toolbar {}
private final class Session: Sendable {}
private final class Log: Sendable {
  let channel: String
  init(channel: String) { self.channel = channel }
}

// An object a framework makes, holding a main-actor view and two uses of one `graph` session.
private final class Controller {
  var toolbar: Toolbar?
  var session: Session?
  var sameSession: Session?
  var log = Log(channel: "placeholder")
  var untouched = "as made"
}

@Suite("inject(into:) is one resolution in the caller's isolation")
struct InjectionResolutionTests {
  private func container() throws -> Container {
    try ContainerBuilder()
      .adding { registrar in
        registrar.bindMainActor(Toolbar.self) { _ in Toolbar() }
        registrar.bind(Session.self, lifetime: .graph) { _ in Session() }
        registrar.bind(Log.self) { _ in Log(channel: "main") }
        registrar.bind(Log.self, tag: "audit") { _ in Log(channel: "audit") }
      }
      .build()
  }

  private static func fill(_ resolver: borrowing Resolver, _ controller: Controller) throws {
    controller.toolbar = try resolver.resolve(Toolbar.self)
    controller.session = try resolver.resolve(Session.self)
    controller.sameSession = try resolver.resolve(Session.self)
  }

  @Test("Properties set in one inject(into:) share their graph instances; tags fall back")
  func sharesGraph() throws {
    let container = try container()
    let controller = Controller()
    try container.inject(into: controller) { resolver, controller in
      controller.session = try resolver.resolve(Session.self)
      controller.sameSession = try resolver.resolve(Session.self)
      controller.log = try resolver.resolve(Log.self, tag: "metrics")  // the untagged one
    }
    #expect(controller.session != nil)
    #expect(controller.session === controller.sameSession)
    #expect(controller.log.channel == "main")
    #expect(controller.untouched == "as made")
    // A second call is a second resolution: a new graph instance.
    let other = Controller()
    try container.inject(into: other) { resolver, other in
      other.session = try resolver.resolve(Session.self)
    }
    #expect(other.session !== controller.session)
  }

  @Test("A missing binding throws with the path; what the closure throws comes out as it is")
  func errors() throws {
    struct Refused: Error {}
    let container = try container()
    let missing = try #require(throws: ResolutionError.self) {
      try container.inject(into: Controller()) { resolver, controller in
        _ = try resolver.resolve(Int.self)
      }
    }
    #expect(missing.code == .missingBinding)
    #expect(missing.requested == BindingKey(Int.self))
    #expect(throws: Refused.self) {
      try container.inject(into: Controller()) { _, _ in throw Refused() }
    }
  }

  /// Swift Testing runs `@MainActor` tests off the main thread on Linux: only the caller's
  /// static isolation says that main-actor bindings may be made.
  @Test("From main-actor code, inject(into:) makes main-actor bindings")
  @MainActor
  func mainActorCaller() throws {
    let container = try container()
    let controller = Controller()
    try container.inject(into: controller) { resolver, controller in
      try Self.fill(resolver, controller)
    }
    #expect(controller.toolbar != nil)
    #expect(controller.session === controller.sameSession)
  }

  @Test("Off the main actor, a main-actor property is refused, never trapped")
  func offMainActor() async throws {
    let container = try container()
    let code = await Task.detached { () -> ResolutionError.Code? in
      do {
        try container.inject(into: Controller()) { resolver, controller in
          try Self.fill(resolver, controller)
        }
        return nil
      } catch {
        return (error as? ResolutionError)?.code
      }
    }.value
    #expect(code == .mainActorRequired)
  }
}
