import Joinery
import Testing

private protocol HTTPClient: Sendable { var name: String { get } }
private struct Client: HTTPClient { let name: String }
private final class Session: Sendable {
  let user: String
  init(user: String) { self.user = user }
}
private final class Inbox: Sendable {
  let session: Session
  let client: any HTTPClient
  init(session: Session, client: any HTTPClient) {
    self.session = session
    self.client = client
  }
}
private final class FeedService: Sendable {
  let client: any HTTPClient
  init(client: any HTTPClient) { self.client = client }
}

private struct AppAssembly: Assembly {
  let tracker: LifetimeTracker
  func register(in registrar: inout Registrar) {
    registrar.bind((any HTTPClient).self, lifetime: .persistent) { _ in Client(name: "app") }
    registrar.bind((any HTTPClient).self, tag: "cdn") { _ in Client(name: "cdn") }
    registrar.bind(FeedService.self, lifetime: .persistent, to: FeedService.init(client:))
    registrar.bind(Tracked.self, lifetime: .persistent) { [tracker] _ in Tracked(tracker) }
  }
}

private struct SessionAssembly: Assembly, Hashable {
  let user: String
  func register(in registrar: inout Registrar) {
    registrar.bind(Session.self, lifetime: .persistent) { [user] _ in Session(user: user) }
    registrar.bind(Inbox.self, lifetime: .persistent, to: Inbox.init(session:client:))
  }
}

private struct SessionNetwork: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind((any HTTPClient).self, lifetime: .persistent) { _ in Client(name: "session") }
  }
}

@Suite("Child containers")
struct ChildContainerTests {
  @Test("A child adds bindings, resolves the rest through its parent, and shares its instances")
  func addsAndShares() throws {
    let tracker = LifetimeTracker()
    let app = try ContainerBuilder(AppAssembly(tracker: tracker)).buildOrRecord()
    let session = try app.makeChild(SessionAssembly(user: "ada"))
    let inbox = try session.resolve(Inbox.self)
    #expect(inbox.session.user == "ada")
    #expect(inbox.client.name == "app")
    #expect(try session.resolve(Tracked.self) === (try app.resolve(Tracked.self)))
    #expect(tracker.madeCount == 1)
    #expect(try app.resolve(Inbox?.self) == nil, "the parent never sees the child")
  }

  @Test("A child's override applies to its own requests, never to the parent's bindings")
  func lexicalLookup() throws {
    let app = try ContainerBuilder(AppAssembly(tracker: LifetimeTracker())).buildOrRecord()
    let child = try app.makeChild(SessionNetwork(), SessionAssembly(user: "bo"))
    #expect(try child.resolve((any HTTPClient).self).name == "session")
    // Declared in the child: its dependencies come from the child.
    #expect(try child.resolve(Inbox.self).client.name == "session")
    // Declared in the parent: its dependencies come from the parent, whoever asks.
    #expect(try child.resolve(FeedService.self).client.name == "app")
    // A tagged binding in the parent wins over the child's untagged one.
    #expect(try child.resolve((any HTTPClient).self, tag: "cdn").name == "cdn")
    #expect(try child.resolve((any HTTPClient).self, tag: "other").name == "session")
  }

  @Test("Releasing a child frees its own instances and keeps the parent's")
  func releaseChild() throws {
    let tracker = LifetimeTracker()
    let app = try ContainerBuilder(AppAssembly(tracker: tracker)).buildOrRecord()
    weak var weakChild: Container?
    let childTracker = LifetimeTracker()
    do {
      let child = try app.makeChild(
        Bindings { registrar in
          registrar.bind(Tracked.self, tag: "child", lifetime: .persistent) { _ in
            Tracked(childTracker)
          }
        })
      weakChild = child
      _ = try child.resolve(Tracked.self, tag: "child")
      _ = try child.resolve(Tracked.self)
    }
    #expect(weakChild == nil)
    #expect(childTracker.aliveCount == 0)
    #expect(tracker.aliveCount == 1)
  }

  @Test("A child's build checks its bindings, counting what the parent binds as present")
  func childValidation() throws {
    let app = try ContainerBuilder(AppAssembly(tracker: LifetimeTracker())).buildOrRecord()
    #expect(throws: Never.self) { try app.makeChild(SessionAssembly(user: "x")) }
    let error = try #require(throws: BuildError.self) {
      try app.makeChild(
        Bindings { registrar in registrar.bind(Inbox.self, to: Inbox.init(session:client:)) })
    }
    #expect(error.diagnostics.map(\.message) == ["Inbox depends on Session, which is not bound."])
  }

  @Test("verify() on a child touches no instance of the parent")
  func verifyChild() throws {
    let tracker = LifetimeTracker()
    let app = try ContainerBuilder(AppAssembly(tracker: tracker)).buildOrRecord()
    let session = try app.makeChild(SessionAssembly(user: "v"))
    let real = try app.resolve(Tracked.self)
    _ = try session.verify()
    #expect(try app.resolve(Tracked.self) === real)
  }
}

@Suite("Children: one lookup rule for every operation")
struct ChildLookupRuleTests {
  final class Impl: Servicing, Sendable { init() {} }

  static func parent() throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Impl.self, lifetime: .persistent, to: Impl.init)
        registrar.bind(UserSession.self, lifetime: .cached) { _ in UserSession(user: "parent") }
      }
    ).build()
  }

  @Test("A child may forward to a binding its parent declares, and shares its instance")
  func forwardToParent() throws {
    let parent = try Self.parent()
    let child = try parent.makeChild(
      Bindings { registrar in registrar.bind((any Servicing).self, forwardingTo: Impl.self) })
    let service = try child.resolve((any Servicing).self)
    #expect(service as AnyObject === (try parent.resolve(Impl.self)))
  }

  @Test("A forward to a type bound only with a tag names what is bound")
  func forwardErrorNamesWhatIsBound() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Impl.self, tag: "special", to: Impl.init)
          registrar.bind((any Servicing).self, forwardingTo: Impl.self)
        }
      ).build()
    }
    #expect(error.description.contains("bound only as"))
    #expect(error.description.contains("\"special\""))
  }

  @Test("store(_:for:) on a child reaches the parent's cached binding, as resolve does")
  func storeThroughChild() throws {
    let parent = try Self.parent()
    let child = try parent.makeChild(Bindings { _ in })
    try child.store(UserSession(user: "stored"), for: UserSession.self)
    #expect(try child.resolve(UserSession.self).user == "stored")
    #expect(try parent.resolve(UserSession.self).user == "stored")
  }

  @Test("20,000 nested children resolve a root binding quickly and without deep recursion")
  func deepChildChain() async throws {
    let root = try Self.parent()
    var leaf = root
    // Under ThreadSanitizer, whose shadow call stack holds a fixed number of frames, releasing
    // the chain (each child releases its parent) must stay shallower.
    let length = BuildFacts.threadSanitizer ? 1_000 : 20_000
    for _ in 0..<length { leaf = try leaf.makeChild(Bindings { _ in }) }
    let deepest = leaf
    // A 512 KiB thread: recursion per level would overflow it.
    let same = await Stress.onThread(stackSize: 512 << 10) { () -> Bool in
      guard let found = try? deepest.resolve(Impl.self),
        let all = try? deepest.resolveAll(Impl.self)
      else { return false }
      return found === (try? root.resolve(Impl.self)) && all.isEmpty
        && (try? deepest.resolve(UserSession.self, tag: "none")) != nil
    }
    #expect(same == true)
    // Release the chain on a large stack: each child releases its parent in turn.
    let chain = ChainBox(leaf)
    leaf = root
    _ = await Stress.onThread(stackSize: 256 << 20) { chain.release() }
  }
}

private protocol Servicing: AnyObject, Sendable {}

private final class ChainBox: @unchecked Sendable {
  // Touched by one thread at a time: set here, released on the thread given the box.
  private var container: Container?
  init(_ container: Container) { self.container = container }
  func release() { container = nil }
}

private final class UserSession: Sendable {
  let user: String
  init(user: String) { self.user = user }
}

@Suite("A child's graph")
struct ChildGraphTests {
  final class Engine: Sendable { init() {} }
  final class Car: Sendable {
    let engine: Engine
    init(engine: Engine) { self.engine = engine }
  }

  @Test("A tree from a child binding shows the dependencies its parent serves")
  func treeIncludesParent() throws {
    let parent = try ContainerBuilder(
      Bindings { registrar in registrar.bind(Engine.self, lifetime: .persistent, to: Engine.init) }
    ).build()
    let child = try parent.makeChild(
      Bindings { registrar in registrar.bind(Car.self, to: Car.init(engine:)) })
    let tree = child.graph.tree(from: BindingKey(Car.self))
    #expect(tree.contains("Engine [persistent]"))
    #expect(!tree.contains("not bound"))
  }
}

private final class Plugin: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

@Suite("Child containers and collections")
struct ChildCollectionTests {
  private func parent() throws -> Container {
    try ContainerBuilder()
      .adding { registrar in
        registrar.contribute(Plugin.self) { _ in Plugin("spelling") }
        registrar.contribute(Plugin.self, tag: "export") { _ in Plugin("pdf") }
        registrar.bind(Plugin.self) { _ in Plugin("default") }
      }
      .build()
  }

  @Test("A child's contributions follow its ancestors'; an overriding one replaces theirs")
  func overridingContributions() throws {
    let parent = try parent()
    let child = try parent.makeChild { registrar in
      registrar.contribute(Plugin.self) { _ in Plugin("grammar") }
      registrar.contribute(Plugin.self, tag: "export", override: true) { _ in Plugin("stub") }
    }
    #expect(try child.resolveAll(Plugin.self).map(\.name) == ["spelling", "grammar"])
    #expect(try child.resolveAll(Plugin.self, tag: "export").map(\.name) == ["stub"])
    #expect(try parent.resolveAll(Plugin.self, tag: "export").map(\.name) == ["pdf"])
    // The override has a target in the parent: no warning says it replaces nothing.
    #expect(child.warnings.isEmpty, "\(child.warnings)")
  }

  @Test("resolveAll(where:) on a child chooses among its ancestors' contributions and its own")
  func choosingAcrossTheChain() throws {
    let parent = try parent()
    let child = try parent.makeChild { registrar in
      registrar.contribute(Plugin.self, metadata: "child") { _ in Plugin("grammar") }
      registrar.contribute(Plugin.self, tag: "export", override: true) { _ in Plugin("stub") }
    }
    #expect(try child.resolveAll(Plugin.self) { $0.metadata == nil }.map(\.name) == ["spelling"])
    #expect(
      try child.resolveAll(Plugin.self) { $0.metadata as? String == "child" }.map(\.name) == [
        "grammar"
      ])
    // The override rule comes first: a declined override still replaces the parent's.
    #expect(try child.resolveAll(Plugin.self, tag: "export") { $0.metadata != nil }.isEmpty)
    #expect(try child.resolveAll(Plugin.self, tag: "export") { _ in true }.map(\.name) == ["stub"])
  }

  @Test("An override in a child of a binding only the parent has is no warning")
  func overrideOfAnAncestorsBinding() throws {
    let child = try parent().makeChild { registrar in
      registrar.bind(Plugin.self, override: true) { _ in Plugin("child") }
      registrar.bind(String.self, override: true) { _ in "nothing to replace" }
    }
    #expect(child.warnings.map(\.code) == [.overrideWithoutTarget])
    #expect(child.warnings.first?.key == BindingKey(String.self))
  }
}
