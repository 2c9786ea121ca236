import Joinery

// MARK: - Real apps: the idioms a ported Swinject or Factory app is written in
//
// Each mapping of Migrating.md, "Idioms of real apps", compiled and run.

// Swinject's default scope: `.graph` for every registration that names none, `.container` for
// the singletons. A singleton keeps the graph instance its resolution made, as with an
// ephemeral one; several singletons each keeping their own instance of one is one warning.
final class AnalyticsManager: Sendable {}
final class FeedTracker: Sendable {
  let manager: AnalyticsManager
  init(manager: AnalyticsManager) { self.manager = manager }
}
final class ProfileTracker: Sendable {
  let manager: AnalyticsManager
  init(manager: AnalyticsManager) { self.manager = manager }
}

struct LegacyTrackingAssembly: Assembly {
  // Swinject: `Assembler([...], defaultObjectScope: .graph)`.
  var defaultLifetime: Lifetime.For<Any>? { .graph }
  func register(in registrar: inout Registrar) {
    registrar.bind(AnalyticsManager.self, to: AnalyticsManager.init)  // no scope: graph
    // `.inObjectScope(.container)`
    registrar.bind(FeedTracker.self, lifetime: .persistent, to: FeedTracker.init)
    registrar.bind(ProfileTracker.self, lifetime: .persistent, to: ProfileTracker.init)
  }
}

// A main-actor view model with runtime arguments, which Swinject apps register with
// `MainActor.assumeIsolated` inside a factory: `bindMainActor` with a closure that takes them.
@MainActor
final class SignInViewModel {
  let sourceScreen: String
  let tracker: FeedTracker
  init(sourceScreen: String, tracker: FeedTracker) {
    self.sourceScreen = sourceScreen
    self.tracker = tracker
  }
}

// A Router that keeps its container and resolves screens as the user navigates (Swinject apps
// keep `Resolver`, Factory apps `Container`): it takes a `ContainerReference`.
final class DetailScreen: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}
final class Router: Sendable {
  private let container: ContainerReference
  init(container: ContainerReference) { self.container = container }
  func show(_ id: Int) throws -> DetailScreen {
    try container.resolve(DetailScreen.self, arguments: id)
  }
}

// Factory's `dependencies: self`: one facade type that answers the feature's `Has…` protocols.
protocol HasTracker: Sendable { var tracker: FeedTracker { get throws } }
protocol HasRouter: Sendable { var router: Router { get throws } }
struct AppDependencies: HasTracker, HasRouter {
  let container: ContainerReference
  var tracker: FeedTracker { get throws { try container.resolve() } }
  var router: Router { get throws { try container.resolve() } }
}
final class FeedCoordinator: Sendable {
  let dependencies: any HasTracker & HasRouter
  init(dependencies: AppDependencies) { self.dependencies = dependencies }
}

// Factory's login: `Container.shared.session.register { Session(user: user) }`, undone at
// logout with `Container.shared.manager.reset(scope: .session)`.
final class Session: Sendable {
  let user: String
  init(user: String) { self.user = user }
}
extension CacheGroup {
  static let session = CacheGroup("session")
}

// `@Injected` with a setter, and Factory's `@WeakLazyInjected`.
final class SettingsScreen {
  @Injected var tracker: FeedTracker
  // `@WeakLazyInjected var cache: ImageCache?`: resolve through a Provider when it is
  // needed, keep it weakly.
  let caches: Provider<ImageCache>
  weak var cache: ImageCache?
  init(caches: Provider<ImageCache>) { self.caches = caches }
  func showImage() throws -> ImageCache {
    if let cache { return cache }
    let made = try caches.get()
    cache = made
    return made
  }
}
final class ImageCache: Sendable {}

// A container per signed-in user (Factory apps with a child container per user): a child
// container whose assembly binds the user.
struct UserAssembly: Assembly {
  let name: String
  func register(in registrar: inout Registrar) {
    registrar.bind(String.self, tag: "user", instance: name)
  }
}

struct RealAppAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.include(LegacyTrackingAssembly())
    // Swinject: `container.register(SignInViewModel.self) { (r, source: String) in
    //   MainActor.assumeIsolated { SignInViewModel(...) } }`
    registrar.bindMainActor(SignInViewModel.self) { (resolver, sourceScreen: String) in
      SignInViewModel(sourceScreen: sourceScreen, tracker: try resolver.resolve())
    }
    registrar.bind(DetailScreen.self) { (_, id: Int) in DetailScreen(id: id) }
    registrar.bind(Router.self, lifetime: .persistent, to: Router.init(container:))
    registrar.bind(AppDependencies.self, to: AppDependencies.init(container:))
    registrar.bind(FeedCoordinator.self, to: FeedCoordinator.init(dependencies:))
    // Replaced at login with `store(_:for:)`, dropped at logout with `reset(.session)`.
    registrar.bind(Session.self, lifetime: .cached(in: .session)) { _ in Session(user: "guest") }
    registrar.bind(ImageCache.self, lifetime: .transient, to: ImageCache.init)
    registrar.bind(SettingsScreen.self, to: SettingsScreen.init(caches:))
  }
}

@MainActor
func realAppsExample() throws {
  let legacy = try ContainerBuilder(LegacyTrackingAssembly()).build()
  let feed = try legacy.resolve(FeedTracker.self)
  let profile = try legacy.resolve(ProfileTracker.self)
  print(
    "  Swinject's default scope builds; each singleton keeps its own manager: "
      + "\(feed.manager !== profile.manager)")
  print(
    "  and build() says so once: \(legacy.warnings.count) warning, on "
      + "\(legacy.warnings.first.map { "\($0.key)" } ?? "nothing")")

  let app = try ContainerBuilder(RealAppAssembly()).build()
  let model = try app.resolve(SignInViewModel.self, arguments: "onboarding")
  print("  a main-actor view model with an argument: \(model.sourceScreen)")

  let router = try app.resolve(Router.self)
  print("  the router resolves a screen later: \(try router.show(42).id)")
  let coordinator = try app.resolve(FeedCoordinator.self)
  print(
    "  dependencies: self answers from the container: "
      + "\(try coordinator.dependencies.router === router)")

  try app.store(Session(user: "ada"), for: Session.self)
  print("  after login: \(try app.resolve(Session.self).user)")
  app.reset(.session)
  print("  after logout: \(try app.resolve(Session.self).user)")

  let screen = try app.resolve(SettingsScreen.self)
  print(
    "  @Injected read later, from where the screen was made: "
      + "\(try screen.$tracker.get() === (try app.resolve(FeedTracker.self)))")
  screen.tracker = FeedTracker(manager: AnalyticsManager())
  print(
    "  @Injected assigned, as in a test: \(screen.tracker !== (try app.resolve(FeedTracker.self)))")
  let cache = try screen.showImage()
  print("  a weak lazy cache, shared while held: \(try app.resolve(ImageCache.self) === cache)")

  let ada = try app.makeChild(UserAssembly(name: "ada"))
  let grace = try app.makeChild(UserAssembly(name: "grace"))
  print(
    "  a container per user: \(try ada.resolve(String.self, tag: "user")), "
      + "\(try grace.resolve(String.self, tag: "user"))")
}
