import Foundation
import Joinery
import MallocCounter
import Swinject

/// Joinery containers for the cases, built once.
enum JoineryContainers {
  struct Graphs: Joinery.Assembly {
    func register(in registrar: inout Registrar) {
      // Ephemeral 4-object graph (two Cs), autowired.
      registrar.bind(ServiceC.self, to: ServiceC.init)
      registrar.bind(ServiceB.self, to: ServiceB.init(c:))
      registrar.bind(ServiceA.self, to: ServiceA.init(b:c:))
      // Per-resolution graph: one C shared by A and B.
      registrar.bind(ServiceC.self, tag: "graph", lifetime: .graph, to: ServiceC.init)
      registrar.bind(
        ServiceB.self, tag: "graph", lifetime: .graph, to: ServiceB.init(c:),
        dependencies: .tagged("graph"))
      registrar.bind(
        ServiceA.self, tag: "graph", lifetime: .graph, to: ServiceA.init(b:c:),
        dependencies: .tagged("graph"), .tagged("graph"))
      // Shared lifetimes.
      registrar.bind(Settings.self, lifetime: .persistent, to: Settings.init)
      registrar.bind(Hello.self, lifetime: .transient, to: Hello.init)
      registrar.bindAsync(AsyncSettings.self, lifetime: .persistent) { _ in AsyncSettings() }
      registrar.bind(Greeter.self, lifetime: .persistent, to: { Hello() as any Greeter })
      registrar.bind(
        Greeter.self, tag: "tagged", lifetime: .persistent, to: { Hello() as any Greeter })
      // Runtime arguments.
      registrar.bind(Download.self) { (_, url: String) in Download(url: url) }
      registrar.bind(Download.self) { (_, url: String, retries: Int, verbose: Bool) in
        Download(url: url, retries: retries, verbose: verbose)
      }
    }
  }

  /// The same ephemeral graph written as factory closures, as many apps declare it.
  struct Closures: Joinery.Assembly {
    func register(in registrar: inout Registrar) {
      registrar.bind(ServiceC.self) { _ in ServiceC() }
      registrar.bind(ServiceB.self) { r in ServiceB(c: try r.resolve()) }
      registrar.bind(ServiceA.self) { r in ServiceA(b: try r.resolve(), c: try r.resolve()) }
    }
  }

  /// The same graph autowired from generic code of the caller's: since the fixed-arity
  /// overloads went (issue 57), the same parameter-pack path as "Joinery", declared through a
  /// generic helper.
  struct PackInitializers: Joinery.Assembly {
    func register(in registrar: inout Registrar) {
      Self.bind(&registrar, ServiceC.self, ServiceC.init)
      Self.bind(&registrar, ServiceB.self, ServiceB.init(c:))
      Self.bind(&registrar, ServiceA.self, ServiceA.init(b:c:))
    }

    static func bind<T, each Parameter>(
      _ registrar: inout Registrar, _ type: T.Type,
      _ initializer: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
      registrar.bind(type, to: initializer)
    }
  }

  /// The `graph` lifetime in a container of its own, so that its bindings need no tag.
  struct UntaggedGraph: Joinery.Assembly {
    func register(in registrar: inout Registrar) {
      registrar.bind(ServiceC.self, lifetime: .graph, to: ServiceC.init)
      registrar.bind(ServiceB.self, lifetime: .graph, to: ServiceB.init(c:))
      registrar.bind(ServiceA.self, lifetime: .graph, to: ServiceA.init(b:c:))
    }
  }

  static let main = try! ContainerBuilder(Graphs()).build()
  static let closures = try! ContainerBuilder(Closures()).build()
  static let packs = try! ContainerBuilder(PackInitializers()).build()
  static let untaggedGraph = try! ContainerBuilder(UntaggedGraph()).build()
}

/// Swinject containers for the same cases.
enum SwinjectContainers {
  // Swinject's container is not Sendable; the benchmark shares it knowingly.
  nonisolated(unsafe) static let main: Swinject.Container = {
    let container = Swinject.Container()
    container.register(ServiceC.self) { _ in ServiceC() }.inObjectScope(.transient)
    container.register(ServiceB.self) { r in ServiceB(c: r.resolve(ServiceC.self)!) }
      .inObjectScope(.transient)
    container.register(ServiceA.self) { r in
      ServiceA(b: r.resolve(ServiceB.self)!, c: r.resolve(ServiceC.self)!)
    }.inObjectScope(.transient)
    container.register(ServiceC.self, name: "graph") { _ in ServiceC() }.inObjectScope(.graph)
    container.register(ServiceB.self, name: "graph") { r in
      ServiceB(c: r.resolve(ServiceC.self, name: "graph")!)
    }.inObjectScope(.graph)
    container.register(ServiceA.self, name: "graph") { r in
      ServiceA(
        b: r.resolve(ServiceB.self, name: "graph")!, c: r.resolve(ServiceC.self, name: "graph")!)
    }.inObjectScope(.graph)
    container.register(Settings.self) { _ in Settings() }.inObjectScope(.container)
    container.register(Hello.self) { _ in Hello() }.inObjectScope(.weak)
    container.register(Greeter.self) { _ in Hello() }.inObjectScope(.container)
    container.register(Greeter.self, name: "tagged") { _ in Hello() }.inObjectScope(.container)
    container.register(Download.self) { (_, url: String) in Download(url: url) }
    container.register(Download.self) { (_, url: String, retries: Int, verbose: Bool) in
      Download(url: url, retries: retries, verbose: verbose)
    }
    return container
  }()
}

final class Stored: @unchecked Sendable {
  var settings = Settings()
  var greeter: any Greeter = Hello()
  /// Keeps the transient instances alive outside the containers.
  var held: [AnyObject] = []
  /// What any weak sharing starts from: a weak reference to an object held elsewhere.
  weak var weakHello: Hello?
}

func loop(_ body: @escaping () -> Void) -> (Int) -> Void {
  { iterations in for _ in 0..<iterations { body() } }
}

func resolutionRows() -> [Row] {
  let joinery = JoineryContainers.main
  let closures = JoineryContainers.closures
  let packs = JoineryContainers.packs
  let untaggedGraph = JoineryContainers.untaggedGraph
  let swinject = SwinjectContainers.main
  let stored = opaque(Stored())
  stored.held = [try! joinery.resolve(Hello.self), swinject.resolve(Hello.self)!]
  stored.weakHello = stored.held[0] as? Hello
  _ = try! joinery.resolve(Settings.self)
  _ = swinject.resolve(Settings.self)
  return [
    Row(
      title: "ephemeral 4-object graph", floor: "hand-written",
      variants: [
        Variant(
          name: "hand-written",
          run: loop { blackHole(ServiceA(b: ServiceB(c: ServiceC()), c: ServiceC())) }),
        Variant(name: "Joinery", run: loop { blackHole(try! joinery.resolve(ServiceA.self)) }),
        Variant(
          name: "Joinery, factory closures",
          run: loop { blackHole(try! closures.resolve(ServiceA.self)) }),
        Variant(
          name: "Joinery, parameter-pack initializers",
          run: loop { blackHole(try! packs.resolve(ServiceA.self)) }),
        Variant(name: "Swinject", run: loop { blackHole(swinject.resolve(ServiceA.self)!) }),
      ]),
    Row(
      title: "ephemeral single object", floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(ServiceC()) }),
        Variant(name: "Joinery", run: loop { blackHole(try! joinery.resolve(ServiceC.self)) }),
        Variant(name: "Swinject", run: loop { blackHole(swinject.resolve(ServiceC.self)!) }),
      ]),
    Row(
      title: "persistent, already built", floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(opaque(stored).settings) }),
        // What any function returning a shared object costs: a retain and a release.
        Variant(
          name: "hand-written, returned by a function", run: loop { blackHole(sharedSettings()) }),
        Variant(
          name: "Joinery",
          run: loop { blackHole(try! joinery.resolve(Settings.self)) }),
        Variant(
          name: "Swinject",
          run: loop { blackHole(swinject.resolve(Settings.self)!) }),
      ]),
    Row(
      title: "graph lifetime, 3 objects", floor: "hand-written",
      variants: [
        Variant(
          name: "hand-written",
          run: loop {
            let c = ServiceC()
            blackHole(ServiceA(b: ServiceB(c: c), c: c))
          }),
        Variant(
          name: "Joinery",
          run: loop { blackHole(try! joinery.resolve(ServiceA.self, tag: "graph")) }),
        Variant(
          name: "Joinery, untagged in its own container",
          run: loop { blackHole(try! untaggedGraph.resolve(ServiceA.self)) }),
        Variant(
          name: "Swinject", run: loop { blackHole(swinject.resolve(ServiceA.self, name: "graph")!) }
        ),
      ]),
    Row(
      title: "transient (weak), held outside", floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(opaque(stored).greeter) }),
        // The floor of weak sharing: loading a weak reference, single-threaded, without a lock.
        Variant(
          name: "hand-written, a weak reference loaded",
          run: loop { blackHole(opaque(stored).weakHello!) }),
        Variant(name: "Joinery", run: loop { blackHole(try! joinery.resolve(Hello.self)) }),
        Variant(name: "Swinject", run: loop { blackHole(swinject.resolve(Hello.self)!) }),
      ]),
    Row(
      title: "protocol, persistent: untagged / tagged / fallback", floor: "Joinery untagged",
      variants: [
        Variant(
          name: "Joinery untagged", run: loop { blackHole(try! joinery.resolve(Greeter.self)) }),
        Variant(
          name: "Joinery tagged",
          run: loop { blackHole(try! joinery.resolve(Greeter.self, tag: "tagged")) }),
        Variant(
          name: "Joinery fallback",
          run: loop { blackHole(try! joinery.resolve(Greeter.self, tag: "other")) }),
        Variant(
          name: "Swinject", run: loop { blackHole(swinject.resolve(Greeter.self, name: "tagged")!) }
        ),
      ]),
    Row(
      title: "runtime arguments: 1", floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(Download(url: opaque("u"))) }),
        Variant(
          name: "Joinery",
          run: loop { blackHole(try! joinery.resolve(Download.self, arguments: "u")) }),
        Variant(
          name: "Swinject", run: loop { blackHole(swinject.resolve(Download.self, argument: "u")!) }
        ),
      ]),
    Row(
      title: "runtime arguments: 3", floor: "hand-written",
      variants: [
        Variant(
          name: "hand-written",
          run: loop { blackHole(Download(url: opaque("u"), retries: 3, verbose: true)) }),
        Variant(
          name: "Joinery",
          run: loop { blackHole(try! joinery.resolve(Download.self, arguments: "u", 3, true)) }),
        Variant(
          name: "Swinject",
          run: loop { blackHole(swinject.resolve(Download.self, arguments: "u", 3, true)!) }),
      ]),
  ]
}

/// Resolving one persistent binding beside N others.
func scalingRows() -> [Row] {
  [10, 1_000, 10_000].map { count in
    let phantoms = PhantomSet(count: count)
    let joinery = try! ContainerBuilder(phantoms, JoineryContainers.Graphs()).build()
    let swinject = Swinject.Container()
    phantoms.registerSwinject(swinject)
    swinject.register(Settings.self) { _ in Settings() }.inObjectScope(.container)
    _ = try! joinery.resolve(Settings.self)
    _ = swinject.resolve(Settings.self)
    return Row(
      title: "persistent beside \(count) bindings", floor: nil,
      variants: [
        Variant(
          name: "Joinery",
          run: loop { blackHole(try! joinery.resolve(Settings.self)) }),
        Variant(name: "Swinject", run: loop { blackHole(swinject.resolve(Settings.self)!) }),
      ])
  }
}

/// Building (Joinery: registration and validation) against Swinject registering.
func buildRows() -> [Row] {
  [100, 1_000, 10_000].map { count in
    let phantoms = PhantomSet(count: count)
    // Instantiate the phantom types' metadata once, outside the measurement.
    _ = try! ContainerBuilder(phantoms).build()
    return Row(
      title: "build \(count) bindings", floor: nil,
      variants: [
        Variant(
          name: "Joinery",
          run: { iterations in
            for _ in 0..<iterations { blackHole(try! ContainerBuilder(phantoms).build()) }
          }),
        Variant(
          name: "Swinject",
          run: { iterations in
            for _ in 0..<iterations {
              let container = Swinject.Container()
              phantoms.registerSwinject(container)
              blackHole(container)
            }
          }),
      ])
  }
}

/// Building N bindings split into modules of 100: plain registers, against assemblies that keep
/// half their bindings private (issue 60: boundaries cost `build()` little, linearly).
func moduleBuildRows() -> [Row] {
  [1_000, 10_000].map { count in
    let phantoms = PhantomSet(count: count)
    let plain = modules(of: phantoms, perModule: 100, boundaries: false)
    let bounded = modules(of: phantoms, perModule: 100, boundaries: true)
    _ = try! ContainerBuilder(plain).build()
    _ = try! ContainerBuilder(bounded).build()
    return Row(
      title: "build \(count) bindings in modules of 100", floor: nil,
      variants: [
        Variant(
          name: "Joinery, plain registers",
          run: { iterations in
            for _ in 0..<iterations { blackHole(try! ContainerBuilder(plain).build()) }
          }),
        Variant(
          name: "Joinery, assemblies, half private",
          run: { iterations in
            for _ in 0..<iterations { blackHole(try! ContainerBuilder(bounded).build()) }
          }),
      ])
  }
}

final class Missing: @unchecked Sendable {}

/// An optional collaborator (NEEDS 19: `init(analytics: Analytics?)` means "this if bound").
protocol Analytics: AnyObject, Sendable {}
final class TrackedAnalytics: Analytics {}
final class AnalyticsScreen: Sendable {
  let analytics: (any Analytics)?
  init(analytics: (any Analytics)?) { self.analytics = analytics }
}

/// An optional collaborator, a `Provider`, and a failed resolve beside N bindings: the paths
/// that ask about a type nothing binds.
final class AnalyticsFactory: Sendable {
  let make: Joinery.Provider<any Analytics>
  init(make: Joinery.Provider<any Analytics>) { self.make = make }
}
final class HandWrittenAnalyticsFactory: Sendable {
  let make: @Sendable () -> any Analytics
  init(make: @escaping @Sendable () -> any Analytics) { self.make = make }
}

func failureRows() -> [Row] {
  let unbound = try! ContainerBuilder().adding { registrar in
    registrar.bind(AnalyticsScreen.self, to: AnalyticsScreen.init(analytics:))
  }.build()
  let bound = try! ContainerBuilder().adding { registrar in
    registrar.bind(AnalyticsScreen.self, to: AnalyticsScreen.init(analytics:))
    registrar.bind(
      (any Analytics).self, lifetime: .persistent, to: { TrackedAnalytics() as any Analytics })
  }.build()
  let swinject = Swinject.Container()
  swinject.register(AnalyticsScreen.self) { r in
    AnalyticsScreen(analytics: r.resolve((any Analytics).self))
  }
  let optional = Row(
    title: "optional collaborator: ephemeral object, its T? dependency unbound",
    floor: "hand-written",
    variants: [
      Variant(name: "hand-written", run: loop { blackHole(AnalyticsScreen(analytics: nil)) }),
      Variant(name: "Joinery", run: loop { blackHole(try! unbound.resolve(AnalyticsScreen.self)) }),
      Variant(
        name: "Joinery, dependency bound (persistent)",
        run: loop { blackHole(try! bound.resolve(AnalyticsScreen.self)) }),
      Variant(name: "Swinject", run: loop { blackHole(swinject.resolve(AnalyticsScreen.self)!) }),
    ])
  // A factory injected as a `Provider` (Swinject has none built in: a resolver closure).
  let providers = try! ContainerBuilder().adding { registrar in
    registrar.bind(
      (any Analytics).self, lifetime: .persistent, to: { TrackedAnalytics() as any Analytics })
    registrar.bind(AnalyticsFactory.self, to: AnalyticsFactory.init(make:))
  }.build()
  let made = TrackedAnalytics()
  let provider = Row(
    title: "an object holding a Provider<T>", floor: "hand-written",
    variants: [
      Variant(
        name: "hand-written",
        run: loop { blackHole(HandWrittenAnalyticsFactory(make: { made })) }),
      Variant(
        name: "Joinery", run: loop { blackHole(try! providers.resolve(AnalyticsFactory.self)) }),
    ])
  // Calling the factory: `get()` on a held `Provider` of an ephemeral binding.
  let ephemeralProviders = try! ContainerBuilder().adding { registrar in
    registrar.bind((any Analytics).self, to: { TrackedAnalytics() as any Analytics })
    registrar.bind(AnalyticsFactory.self, to: AnalyticsFactory.init(make:))
  }.build()
  let heldFactory = try! ephemeralProviders.resolve(AnalyticsFactory.self)
  let handWrittenFactory = HandWrittenAnalyticsFactory(make: { TrackedAnalytics() })
  let swinjectFactories = Swinject.Container()
  swinjectFactories.register((any Analytics).self) { _ in TrackedAnalytics() }
  let swinjectMake: () -> any Analytics = { swinjectFactories.resolve((any Analytics).self)! }
  let providerGet = Row(
    title: "Provider<T>.get(): a new object per call", floor: "hand-written",
    variants: [
      Variant(name: "hand-written", run: loop { blackHole(opaque(handWrittenFactory).make()) }),
      // The provider holds its container weakly: the app keeps the container.
      Variant(
        name: "Joinery",
        run: loop {
          withExtendedLifetime(ephemeralProviders) {
            blackHole(try! opaque(heldFactory).make.get())
          }
        }),
      Variant(name: "Swinject", run: loop { blackHole(swinjectMake()) }),
    ])
  return [optional, provider, providerGet]
    + [10, 10_000].map { count in
      let phantoms = PhantomSet(count: count)
      let joinery = try! ContainerBuilder(phantoms).build()
      let swinject = Swinject.Container()
      phantoms.registerSwinject(swinject)
      return Row(
        title: "failed resolve beside \(count) bindings", floor: nil,
        variants: [
          Variant(name: "Joinery", run: loop { blackHole(try? joinery.resolve(Missing.self)) }),
          Variant(name: "Swinject", run: loop { blackHole(swinject.resolve(Missing.self)) }),
        ])
    }
}
