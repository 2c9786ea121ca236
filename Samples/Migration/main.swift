import Foundation
import Joinery

// The classic examples of the containers people migrate from, written with Joinery.
// `swift run MigrationGuide` runs all six; the DocC article "Migrating to Joinery" maps the
// APIs one by one.

// MARK: - Resolve: a pet owner and a cat, with variants
//
// Resolve registers variants of a type (`register(variant: "Mimi")`) and injects them with a
// property wrapper (`@Resolve(variant: "Mimi") var pet`). In Joinery a variant is a tag, the
// property wrapper is `@Injected(tag:)`, and Resolve's lifetimes keep their names:
// persistent, transient (weak) and ephemeral.

protocol Animal: Sendable {
  var name: String { get }
}

final class Cat: Animal {
  let name: String
  init(name: String) { self.name = name }
}

final class PetOwner: Sendable {
  // Resolved on first use from the container the owner was made in.
  let pet = Injected<any Animal>(tag: "Mimi")

  func play() -> String { "I'm playing with \(pet.wrappedValue.name)." }
}

struct PetAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind((any Animal).self, lifetime: .persistent, to: { Cat(name: "Tom") as any Animal })
    registrar.bind(
      (any Animal).self, tag: "Mimi", lifetime: .transient,
      to: { Cat(name: "Mimi") as any Animal })
    registrar.bind(PetOwner.self, to: PetOwner.init)
  }
}

func resolveExample() throws {
  let container = try ContainerBuilder(PetAssembly()).build()
  try container.withCurrent {
    let owner = try container.resolve(PetOwner.self)
    print("  \(owner.play())")
  }
  // A variant nobody registered falls back to the untagged cat.
  print(
    "  The \"Felix\" variant falls back to: \(try container.resolve((any Animal).self, tag: "Felix").name)"
  )
}

// MARK: - Dip: a friends provider, tagged, falling back to the untagged one
//
// Dip resolves `resolve(tag: "me")` with the untagged definition when no tagged one exists, but
// its singletons then became one instance per tag. Joinery falls back too, and the instance
// belongs to the binding: every tag that falls back gets the same provider.

protocol FriendsProviding: AnyObject, Sendable {
  func friends() -> [String]
}

final class PlainFriendsProvider: FriendsProviding {
  func friends() -> [String] { ["Ada", "Grace"] }
}

final class FamilyFriendsProvider: FriendsProviding {
  func friends() -> [String] { ["Mum", "Dad"] }
}

struct FriendsAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(
      (any FriendsProviding).self, lifetime: .persistent,
      to: { PlainFriendsProvider() as any FriendsProviding })
    registrar.bind(
      (any FriendsProviding).self, tag: "family", lifetime: .persistent,
      to: { FamilyFriendsProvider() as any FriendsProviding })
  }
}

func dipExample() throws {
  let container = try ContainerBuilder(FriendsAssembly()).build()
  let family = try container.resolve((any FriendsProviding).self, tag: "family")
  let work = try container.resolve((any FriendsProviding).self, tag: "work")
  let plain = try container.resolve((any FriendsProviding).self)
  print("  tag \"family\": \(family.friends())  (its own binding)")
  print("  tag \"work\":   \(work.friends())  (falls back to the untagged one)")
  print("  \"work\" and untagged are one instance: \(work === plain)")
  // Opt out of the fallback where a missing tag is a mistake:
  let strict = try? container.resolve((any FriendsProviding).self, tag: "work", matching: .exact)
  print("  with matching: .exact, \"work\" is not served: \(strict == nil)")
}

// MARK: - Guise: named plugins with metadata, filtered
//
// Guise registers many implementations under names with arbitrary metadata and filters the
// registrations by it (`filter(type:metadata:)`) before resolving the keys it found. In Joinery
// the implementations are contributions to a multi-binding, the metadata is any value, and
// `resolveAll(_:where:)` chooses by it before making anything: the others are never made.
// Order is deterministic: assembly order, then registration order.

protocol Plugin: Sendable {
  var name: String { get }
}

struct NamedPlugin: Plugin {
  let name: String
}

enum PluginKind: Sendable {
  case editor, viewer
}

struct PluginAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.contribute((any Plugin).self, metadata: PluginKind.editor) { _ in
      NamedPlugin(name: "Markdown editor")
    }
    registrar.contribute((any Plugin).self, metadata: PluginKind.viewer) { _ in
      NamedPlugin(name: "PDF viewer")
    }
    registrar.contribute((any Plugin).self, metadata: PluginKind.viewer) { _ in
      NamedPlugin(name: "Image viewer")
    }
  }
}

func guiseExample() throws {
  let container = try ContainerBuilder(PluginAssembly()).build()
  let viewers = try container.resolveAll((any Plugin).self) { contribution in
    contribution.metadata as? PluginKind == .viewer
  }.map(\.name)
  print("  viewers: \(viewers)")
  print("  all plugins: \(try container.resolveAll((any Plugin).self).map(\.name))")
}

// MARK: - Wormer: an interface bound to an implementation as a singleton
//
// Wormer binds `interface:` to `toImplementation:` with `asSingleton: true` and returns it from
// `instance()`. In Joinery the interface is the bound type, the implementation's initializer is
// the factory (its parameters are resolved and checked by build()), and a singleton is
// `.persistent`.

protocol EventBus: AnyObject, Sendable {}
final class InMemoryEventBus: EventBus {}

protocol NotificationGateway: Sendable {
  var bus: any EventBus { get }
}
final class LocalNotificationGateway: NotificationGateway {
  let bus: any EventBus
  init(bus: any EventBus) { self.bus = bus }
}

struct MessagingAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(
      (any EventBus).self, lifetime: .persistent, to: { InMemoryEventBus() as any EventBus })
    registrar.bind(
      (any NotificationGateway).self,
      to: { (bus: any EventBus) in LocalNotificationGateway(bus: bus) as any NotificationGateway })
  }
}

func wormerExample() throws {
  let container = try ContainerBuilder(MessagingAssembly()).build()
  let bus = try container.resolve((any EventBus).self)
  let gateway = try container.resolve((any NotificationGateway).self)
  print("  the gateway got the singleton bus: \(gateway.bus === bus)")
}

// MARK: - Swinject: circular references in one graph, optional dependencies, context
//
// Swinject fills a back-reference with `initCompleted` inside the same graph; Joinery's
// `initCompleted` step runs at the end of the resolution that made the instance, so under the
// graph lifetime the child's parent is the parent being built. An optional parameter takes the
// binding if there is one. A factory sees who asked for it through its resolver (Dip's context).

final class TreeNode: @unchecked Sendable {
  let name: String
  let child: Leaf
  init(child: Leaf) {
    self.name = "root"
    self.child = child
  }
}

final class Leaf: @unchecked Sendable {
  weak var parent: TreeNode?
  let logger: SampleLogger
  let tracer: Tracer?
  init(logger: SampleLogger, tracer: Tracer?) {
    self.logger = logger
    self.tracer = tracer
  }
}

struct SampleLogger: Sendable { let category: String }
struct Tracer: Sendable {}

struct TreeAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(TreeNode.self, lifetime: .graph, to: TreeNode.init(child:))
    registrar.bind(Leaf.self, lifetime: .graph, to: Leaf.init(logger:tracer:))
    registrar.initCompleted(Leaf.self) { resolver, leaf in
      leaf.parent = try resolver.resolve(TreeNode.self)
    }
    // The logger's category is the type it is injected into.
    registrar.bind(SampleLogger.self) { resolver in
      SampleLogger(category: resolver.consumer.map { "\($0.type)" } ?? "app")
    }
    // No Tracer is bound: `Leaf.init(logger:tracer:)` gets nil.
  }
}

func swinjectExample() throws {
  let container = try ContainerBuilder(TreeAssembly()).build()
  let root = try container.resolve(TreeNode.self)
  print("  the leaf's parent is the root of the same graph: \(root.child.parent === root)")
  print("  the leaf's logger knows who asked: \(root.child.logger.category)")
  print("  the optional tracer, not bound: \(root.child.tracer == nil ? "nil" : "set")")
  // An object the container did not make, filled in one resolution.
  final class Screen {
    var logger: SampleLogger?
  }
  let screen = Screen()
  try container.inject(into: screen) { resolver, screen in
    screen.logger = try resolver.resolve(SampleLogger.self)
  }
  print("  a screen filled by inject(into:): \(screen.logger?.category ?? "none")")
}

// MARK: - Factory and swift-dependencies: live values, test values, one override per test
//
// Factory's `Container.shared.api.register { MockAPI() }` and swift-dependencies'
// `withDependencies { $0.apiClient = .mock }` become one assembly for production and an
// override for a test: each test builds its own container, so tests run in parallel.

protocol APIClient: Sendable {
  func fetchTitles() -> [String]
}

struct LiveAPIClient: APIClient {
  func fetchTitles() -> [String] { ["live headline"] }
}

struct MockAPIClient: APIClient {
  func fetchTitles() -> [String] { ["mock headline"] }
}

struct HeadlinesModel: Sendable {
  let api: any APIClient
  var titles: [String] { api.fetchTitles() }
}

struct HeadlinesAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    // Factory: `var api: Factory<any APIClient> { self { LiveAPIClient() }.singleton }`
    // swift-dependencies: `static let liveValue: any APIClient = LiveAPIClient()`
    registrar.bind(
      (any APIClient).self, lifetime: .persistent, to: { LiveAPIClient() as any APIClient })
    // `@Injected(\.api)` / `@Dependency(\.apiClient)` become an initializer parameter.
    registrar.bind(HeadlinesModel.self, to: HeadlinesModel.init(api:))
  }
}

func factoryAndDependenciesExample() throws {
  let live = try ContainerBuilder(HeadlinesAssembly()).build()
  print("  production: \(try live.resolve(HeadlinesModel.self).titles)")
  // Factory: `Container.shared.api.register { MockAPIClient() }`;
  // swift-dependencies: `withDependencies { $0.apiClient = MockAPIClient() } operation: { … }`.
  let test = try ContainerBuilder(HeadlinesAssembly())
    .overriding { registrar in
      registrar.bind((any APIClient).self, to: { MockAPIClient() as any APIClient })
    }
    .build()
  print("  a test's own container: \(try test.resolve(HeadlinesModel.self).titles)")
}

// MARK: - Swift 6 and Sendable: what a Swinject or Factory graph changes
//
// A container shared between threads can only share `Sendable` instances: every lifetime that
// keeps one (persistent, cached, transient, scoped) requires it, checked by the compiler.
// Migrating.md, "Swift 6 and Sendable", explains each change below.

// 1. A protocol whose instances are shared refines `Sendable`.
protocol Settings: Sendable {
  var theme: String { get }
}

final class LiveSettings: Settings {
  let theme = "dark"
}

// 2. Mutable state goes behind a lock (or into an actor).
final class VisitCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func visit() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count
  }
}

// 3. A class hierarchy: a non-final class cannot be checked, so the base class says
//    `@unchecked Sendable` once its stored state is immutable (or locked).
class NamedService: @unchecked Sendable {
  let name: String
  init(name: String) { self.name = name }
}

final class MailService: NamedService, @unchecked Sendable {}

// 4. A lifetime chosen at run time: `Lifetime.For<T>(lifetime)`, written `.init(lifetime)`.
struct SendableAssembly: Assembly {
  let counterLifetime: Lifetime

  func register(in registrar: inout Registrar) {
    registrar.bind(
      (any Settings).self, lifetime: .persistent, to: { LiveSettings() as any Settings })
    registrar.bind(VisitCounter.self, lifetime: .init(counterLifetime), to: VisitCounter.init)
    registrar.bind(MailService.self, lifetime: .persistent) { MailService(name: "mail") }
  }
}

func sendableExample() throws {
  let container = try ContainerBuilder(SendableAssembly(counterLifetime: .persistent)).build()
  _ = try container.resolve(VisitCounter.self).visit()
  let visits = try container.resolve(VisitCounter.self).visit()
  print("  one shared counter, visits: \(visits)")
  print("  theme: \(try container.resolve((any Settings).self).theme)")
}

print("Swift 6 and Sendable: shared protocols, locked state, class hierarchies, runtime lifetimes")
try sendableExample()
print("Factory and swift-dependencies: a live value, and a test override in its own container")
try factoryAndDependenciesExample()
print("Swinject: a parent and child sharing one graph, an optional dependency, context")
try swinjectExample()
print("Resolve: a pet owner and a cat with variants")
try resolveExample()
print("Dip: a friends provider, with a tag falling back to the untagged one")
try dipExample()
print("Guise: named plugins, filtered by metadata")
try guiseExample()
print("Wormer: an interface bound to an implementation as a singleton")
try wormerExample()
print("Real apps: Swinject's default scope, main-actor view models, routers, login, @Injected")
try realAppsExample()
