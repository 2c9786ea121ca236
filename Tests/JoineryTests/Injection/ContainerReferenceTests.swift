import Joinery
import Testing

// A router, as apps built on Swinject's resolver or Factory's container write one: it keeps
// its container and resolves screens as the user navigates.
private final class Session: Sendable {}
private final class DetailScreen: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}
private final class SettingsScreen: Sendable {}
private final class Router: Sendable {
  let container: ContainerReference
  init(container: ContainerReference) { self.container = container }
  func detail(_ id: Int) throws -> DetailScreen {
    try container.resolve(DetailScreen.self, arguments: id)
  }
  func settings() throws -> SettingsScreen { try container.resolve() }
}

// The `dependencies: self` facade: one object that answers for what a feature needs.
private protocol HasSession: Sendable { func session() throws -> Session }
private protocol HasSettings: Sendable { func settings() throws -> SettingsScreen }
private struct AppDependencies: HasSession, HasSettings, Sendable {
  let container: ContainerReference
  func session() throws -> Session { try container.resolve() }
  func settings() throws -> SettingsScreen { try container.resolve() }
}
private final class ProfileModel: Sendable {
  let dependencies: any HasSession & HasSettings
  init(dependencies: AppDependencies) { self.dependencies = dependencies }
}

private final class Work: Sendable {}
private final class Handler: Sendable {
  let container: ContainerReference
  init(container: ContainerReference) { self.container = container }
}

@MainActor
private final class Screen {
  init() {}
}

private func appContainer() throws -> Container {
  try ContainerBuilder().adding { registrar in
    registrar.bind(Session.self, lifetime: .persistent, to: Session.init)
    registrar.bind(DetailScreen.self) { (_, id: Int) in DetailScreen(id: id) }
    registrar.bind(SettingsScreen.self, to: SettingsScreen.init)
    registrar.bind(Router.self, lifetime: .persistent, to: Router.init(container:))
    registrar.bind(AppDependencies.self, to: AppDependencies.init(container:))
    registrar.bind(ProfileModel.self, to: ProfileModel.init(dependencies:))
    registrar.bind(Work.self, lifetime: .scoped, to: Work.init)
    registrar.bind(Handler.self, to: Handler.init(container:))
    registrar.bindMainActor(Screen.self) { _ in Screen() }
  }.build()
}

@Suite("A factory keeps its container")
struct ContainerReferenceTests {
  @Test("A persistent router resolves screens later, with runtime arguments")
  func router() throws {
    let container = try appContainer()
    let router = try container.resolve(Router.self)
    #expect(try router.detail(7).id == 7)
    #expect(try router.settings() !== (try router.settings()))
    #expect(try router.container.resolve(Session.self) === (try container.resolve(Session.self)))
    #expect(router.container.hasInstance(of: Session.self))
  }

  @Test("A dependencies: self facade answers from the container")
  func facade() throws {
    let container = try appContainer()
    let model = try container.resolve(ProfileModel.self)
    #expect(try model.dependencies.session() === (try container.resolve(Session.self)))
    _ = try model.dependencies.settings()
  }

  @Test("It holds its container weakly: a singleton keeping it does not keep the container")
  func weak() throws {
    weak var gone: Container?
    var router: Router?
    do {
      let container = try appContainer()
      gone = container
      router = try container.resolve(Router.self)
    }
    #expect(gone == nil)
    let error = try #require(throws: ResolutionError.self) { try router?.settings() }
    #expect(error.code == .shutDown)
  }

  @Test("After shutdown, a resolve through it throws shutDown")
  func afterShutdown() async throws {
    let container = try appContainer()
    let router = try container.resolve(Router.self)
    try await container.shutdown()
    let error = try #require(throws: ResolutionError.self) { try router.settings() }
    #expect(error.code == .shutDown)
  }

  @Test("Made in a scope, it resolves in that scope, until the scope closes")
  func scoped() async throws {
    let container = try appContainer()
    let scope = container.makeScope()
    let handler = try scope.resolve(Handler.self)
    #expect(try handler.container.resolve(Work.self) === (try scope.resolve(Work.self)))
    try await scope.close()
    let error = try #require(throws: ResolutionError.self) {
      try handler.container.resolve(Work.self)
    }
    #expect(error.code == .shutDown)
  }

  @Test("Kept by a container-wide instance, it resolves in no scope: scoped bindings refuse")
  func containerWideHasNoScope() throws {
    let container = try appContainer()
    let scope = container.makeScope()
    let router = try scope.resolve(Router.self)
    let error = try #require(throws: ResolutionError.self) {
      try router.container.resolve(Work.self)
    }
    #expect(error.code == .scopeRequired)
  }

  @Test("A main-actor binding through it: thrown off the main actor, awaited from anywhere")
  func mainActor() async throws {
    let container = try appContainer()
    let router = try container.resolve(Router.self)
    let reference = router.container
    let error = try await Task.detached {
      try #require(throws: ResolutionError.self) { try reference.resolve(Screen.self) }
    }.value
    #expect(error.code == .mainActorRequired)
    _ = try await reference.resolveAsync(Screen.self)
  }

  @Test("What it resolves later is declared with dependsOn:, and build() checks it")
  func declared() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(
          Router.self, lifetime: .persistent,
          dependsOn: [BindingKey(ContainerReference.self), BindingKey(SettingsScreen.self)]
        ) { resolver in Router(container: try resolver.resolve()) }
      }.build()
    }
    #expect(error?.diagnostics.map(\.code) == [.missingDependency])
    #expect(error?.diagnostics.first?.message.contains("SettingsScreen") == true)
  }

  @Test("Resolves racing the container's release either work or throw shutDown")
  func releaseRace() async throws {
    final class Box: Sendable {
      let container: Locked<Container?>
      let reference: ContainerReference
      init(_ made: Container) throws {
        let router: Router = try made.resolve()
        container = Locked(made)
        reference = router.container
      }
    }
    await Stress.run(
      rounds: 200,
      prepare: { _ in try Box(try appContainer()) },
      work: { (box: Box, thread: Int) -> String in
        if thread == 0 {
          box.container.withLock { $0 = nil }
          return "dropped"
        }
        do {
          _ = try box.reference.resolve(SettingsScreen.self)
          return "resolved"
        } catch {
          return "\((error as? ResolutionError)?.code.description ?? "\(error)")"
        }
      },
      check: { round, _, results in
        Set(results).isSubset(of: ["dropped", "resolved", "shutDown"])
          ? nil : "round \(round): \(Set(results))"
      })
  }
}

@Suite("An array of registers is a register")
struct RegisterArrayTests {
  private struct Named: DependencyRegister, Hashable {
    let name: String
    func register(in registrar: inout Registrar) {
      registrar.bind(String.self, tag: name, instance: name)
    }
  }

  @Test("Builders, child containers and includes take an array of registers")
  func arrays() throws {
    let features: [any DependencyRegister] = [Named(name: "inbox"), Named(name: "settings")]
    let container = try ContainerBuilder(Named(name: "core"), features).build()
    #expect(try container.resolve(String.self, tag: "inbox") == "inbox")
    #expect(try container.resolve(String.self, tag: "core") == "core")
    let child = try container.makeChild([Named(name: "user")] as [any DependencyRegister])
    #expect(try child.resolve(String.self, tag: "user") == "user")
    let included = try ContainerBuilder().adding { registrar in
      registrar.include(features)
    }.build()
    #expect(try included.resolve(String.self, tag: "settings") == "settings")
  }

  @Test("A register in two arrays registers once, and a duplicate names its register")
  func diamondAndDuplicates() throws {
    let shared: [any DependencyRegister] = [Named(name: "shared")]
    _ = try ContainerBuilder(shared, [Named(name: "shared"), Named(name: "other")]).build()
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        [Named(name: "a")] as [any DependencyRegister],
        Bindings { registrar in registrar.bind(String.self, tag: "a", instance: "again") }
      ).build()
    }
    #expect(error?.diagnostics.first?.message.contains("Named") == true)
  }
}
