import Joinery
import Testing

@MainActor
private final class ViewModel {
  let title: String
  let service: ServiceC
  init(title: String, service: ServiceC) {
    self.title = title
    self.service = service
  }
}

@MainActor
private final class Screen {
  let model: ViewModel
  init(model: ViewModel) { self.model = model }
}

/// Made off the main actor by an async factory, from a main-actor model.
private final class Presenter: Sendable {
  let model: ViewModel
  init(model: ViewModel) { self.model = model }
}

private protocol Titled: Sendable {}
extension ViewModel: Titled {}

private func mainActorContainer() throws -> Container {
  try ContainerBuilder(
    Bindings { registrar in
      registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
      registrar.bindMainActor(ViewModel.self, lifetime: .persistent) { resolver in
        ViewModel(title: "feed", service: try resolver.resolve())
      }
      registrar.bindMainActor(Screen.self, to: Screen.init(model:))
    }
  ).build()
}

@Suite("Main-actor bindings")
struct MainActorBindingTests {
  @Test("On the main actor, a main-actor binding resolves synchronously")
  @MainActor
  func synchronousOnMain() throws {
    let container = try mainActorContainer()
    let model = try container.resolve(ViewModel.self)
    #expect(model.title == "feed")
    let screen = try container.resolve(Screen.self)
    #expect(screen.model === model)
  }

  @Test("Off the main actor it takes await, and the initializer runs on the main actor")
  func awaitedElsewhere() async throws {
    let container = try mainActorContainer()
    let model = try await MainActor.run { try container.resolve(ViewModel.self) }
    let title = model.title
    #expect(title == "feed")
  }

  @Test("A plain resolve on another thread throws instead of trapping")
  func offMainThrows() async throws {
    let container = try mainActorContainer()
    let code = await Stress.onThread { () -> ResolutionError.Code? in
      do throws(ResolutionError) {
        _ = try container.resolve(Screen.self)
        return nil
      } catch {
        return error.code
      }
    }
    #expect(code == .mainActorRequired)
  }

  // The test runner's main actor is not the main thread on Linux (`dispatchMain()` hands the main
  // queue to a worker): a child process runs this on the real main thread, as an app does.
  @Test(
    "On the main thread, a plain resolve of a main-actor binding works, and build() creates eager ones",
    .disabled(if: BuildFacts.threadSanitizer, "fork under ThreadSanitizer deadlocks its runtime"))
  func plainResolveOnMainThread() throws {
    let run = try Probe.run("main-actor-plain-resolve")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("on the main thread: true"))
    #expect(run.output.contains("eager models made by build: 1"), "\(run.output)")
    #expect(run.output.contains("plain resolve: model"), "\(run.output)")
    #expect(run.output.contains("same model: true"), "\(run.output)")
  }

  @Test("A Provider of a main-actor type, used inside a main-actor factory, resolves")
  @MainActor
  func providerInsideMainActorFactory() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bindMainActor(ViewModel.self) { resolver in
          ViewModel(title: "provided", service: try resolver.resolve())
        }
        registrar.bindMainActor(Screen.self) { resolver in
          let provider: Provider<ViewModel> = try resolver.resolve()
          return Screen(model: try provider.get())
        }
      }
    ).build()
    #expect(try container.resolve(Screen.self).model.title == "provided")
  }

  @Test("resolveAsync hops to the main actor for a main-actor binding, from any task")
  func resolveAsyncHops() async throws {
    let made = TestAtomic<Int>(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bindMainActor(ViewModel.self) { resolver in
          made.add(1, ordering: .relaxed)
          return ViewModel(title: "hopped", service: try resolver.resolve())
        }
        registrar.bind((any Titled).self, tag: "model", forwardingTo: ViewModel.self)
        registrar.bindAsync(Presenter.self, to: Presenter.init(model:))
      }
    ).build()
    // Detached: not on the main actor. Each form is a new ephemeral model, made there.
    let titles = try await Task.detached { () async throws -> [String] in
      let model = try await container.resolveAsync(ViewModel.self)
      let tagged = try await container.resolveAsync(ViewModel.self, tag: "absent")
      let forwarded = try await container.resolveAsync((any Titled).self, tag: "model")
      // An async factory awaiting a main-actor dependency: build() accepts it, so it resolves.
      let presenter = try await container.resolveAsync(Presenter.self)
      return [
        model.title, tagged.title, (forwarded as? ViewModel)?.title ?? "-",
        presenter.model.title,
      ]
    }.value
    #expect(titles == ["hopped", "hopped", "hopped", "hopped"])
    #expect(made.load(ordering: .relaxed) == 4)
    // The synchronous form still refuses off the main actor.
    let code = await Stress.onThread { () -> ResolutionError.Code? in
      do throws(ResolutionError) {
        _ = try container.resolve(ViewModel.self)
        return nil
      } catch {
        return error.code
      }
    }
    #expect(code == .mainActorRequired)
  }
}
