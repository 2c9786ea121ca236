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
}
