import Joinery
import Testing

@MainActor
private final class Panel {
  static let made = Locked(0)
  let number: Int
  init() {
    number = Self.made.withLock { count in
      count += 1
      return count
    }
  }
}

@MainActor
private final class Window {
  let panel: Panel
  init(panel: Panel) { self.panel = panel }
}

/// A main-actor `Window` (ephemeral) over a main-actor `Panel` (persistent, eager when asked).
private struct Screens: Assembly {
  var eager = false
  func register(in registrar: inout Registrar) {
    registrar.bindMainActor(Panel.self, lifetime: .persistent(eager: eager)) { _ in Panel() }
    registrar.bindMainActor(Window.self, to: Window.init(panel:))
  }
}

/// An actor that is not the main actor: a caller isolated to it is not on the main actor.
private actor Worker {
  func outcome(_ container: Container) -> ResolutionError.Code? {
    do throws(ResolutionError) {
      _ = try container.resolve(Window.self)
      return nil
    } catch {
      return error.code
    }
  }
}

/// The caller's isolation, known statically, decides whether main-actor factories may run,
/// not the thread: Swift Testing runs `@MainActor` tests off the main thread on Linux
/// (`dispatchMain()` hands the main queue to a worker), where these failed before.
@Suite("Main-actor bindings follow the caller's isolation")
struct MainActorIsolationTests {
  @Test("A plain resolve from main-actor code makes main-actor bindings")
  @MainActor
  func plainResolve() throws {
    let container = try ContainerBuilder(Screens()).build()
    let window = try container.resolve(Window.self)
    #expect(window.panel === (try container.resolve(Panel.self)))
    let tagged: Window = try container.resolve(tag: "any")
    #expect(tagged.panel === window.panel)
    #expect(try container.resolve(Window?.self)?.panel === window.panel)
  }

  @Test("verify() from main-actor code creates main-actor bindings, off the main thread too")
  @MainActor
  func verifyFollowsIsolation() throws {
    let container = try ContainerBuilder(Screens()).build()
    let report = try container.verify()
    #expect(report.skipped.isEmpty, "\(report)")
    #expect(report.verified.contains(BindingKey(Window.self)))
  }

  @Test("verify() from another actor skips main-actor bindings off the main thread")
  func verifyFromAnotherActor() async throws {
    actor Checker {
      func skipped(_ container: Container) throws -> Int { try container.verify().skipped.count }
    }
    let container = try ContainerBuilder(Screens()).build()
    #expect(try await Checker().skipped(container) == 2)
  }

  @Test("build() from main-actor code creates an eager main-actor persistent")
  @MainActor
  func eagerBuild() throws {
    let before = Panel.made.withLock { $0 }
    let container = try ContainerBuilder(Screens(eager: true)).build()
    #expect(Panel.made.withLock { $0 } == before + 1)
    #expect(container.hasInstance(of: Panel.self))
    let child = try container.makeChild(Bindings { _ in })
    #expect(try child.resolve(Window.self).panel === (try container.resolve(Panel.self)))
  }

  @Test("buildAsync() from main-actor code creates an eager main-actor persistent")
  @MainActor
  func eagerBuildAsync() async throws {
    let container = try await ContainerBuilder(Screens(eager: true)).buildAsync()
    #expect(container.hasInstance(of: Panel.self))
  }

  @Test("A scope, a Provider and @Injected's get() resolve from main-actor code")
  @MainActor
  func otherReceivers() async throws {
    let container = try ContainerBuilder(Screens()).build()
    let scope = container.makeScope()
    let panel = try scope.resolve(Panel.self)
    let provider: Provider<Window> = try container.resolve()
    #expect(try provider.get().panel === panel)
    let injected = Injected<Window>(from: container)
    #expect(try injected.get().panel === panel)
    try await scope.close()
  }

  @Test("Off the main actor, a caller isolated to another actor gets mainActorRequired")
  func otherActorThrows() async throws {
    let container = try ContainerBuilder(Screens()).build()
    #expect(await Worker().outcome(container) == .mainActorRequired)
  }

  @Test("A build() off the main actor reports the eager main-actor binding, without trapping")
  func eagerBuildOffMainActor() async throws {
    let outcome = await Stress.onThread { () -> String in
      do throws(BuildError) {
        _ = try ContainerBuilder(Screens(eager: true)).build()
        return "built"
      } catch {
        return error.debugDescription
      }
    }
    #expect(outcome?.contains("mainActorRequired") == true, "\(outcome ?? "")")
  }
}

private final class Tick: Sendable {}

extension MainActorIsolationTests {
  @Test("resolveAll from a main-actor caller makes main-actor dependencies, in one resolution")
  @MainActor
  func resolveAllOnTheMainActor() throws {
    let container = try ContainerBuilder(Screens()).adding { registrar in
      registrar.bind(Tick.self, lifetime: .graph, to: Tick.init)
      registrar.contribute(Tick.self) { resolver in
        _ = try resolver.resolve(Window.self)
        return try resolver.resolve(Tick.self)
      }
      registrar.contribute(Tick.self) { resolver in try resolver.resolve(Tick.self) }
    }.build()
    let ticks = try container.resolveAll(Tick.self)
    #expect(ticks.count == 2)
    #expect(ticks[0] === ticks[1])
  }
}

private final class Dashboard: Sendable {
  let title: String
  init(title: String) { self.title = title }
}

extension MainActorIsolationTests {
  /// `resolveAsync` hops to the main actor for a main-actor binding; below an async factory
  /// that hop must count as main-actor isolation wherever the resolution starts a frame of its
  /// own: under a singleton being made (the captive check's marker) or in a container with
  /// `graph` bindings. Both lost the isolation, and failed off the main thread.
  @Test(
    "An async factory awaits a main-actor binding: under a singleton, beside graph bindings",
    arguments: [false, true])
  func asyncFactoryAwaitsMainActor(withGraphBindings: Bool) async throws {
    let container = try ContainerBuilder(Screens()).adding { registrar in
      if withGraphBindings { registrar.bind(Tick.self, lifetime: .graph, to: Tick.init) }
      registrar.bindAsync(Dashboard.self, lifetime: .persistent) { resolver in
        let window = try await resolver.resolveAsync(Window.self)
        let number = await MainActor.run { window.panel.number }
        return Dashboard(title: "panel \(number > 0)")
      }
      registrar.bindAsync(String.self) { resolver in
        try await resolver.resolveAsync(Dashboard.self).title
      }
    }.build()
    // From a task that is not on the main actor, as a server handler would.
    let title = try await Task.detached { try await container.resolveAsync(String.self) }.value
    #expect(title == "panel true")
  }
}
