import Joinery
import Testing

private protocol Store: Sendable {}
private final class DiskStore: Store {}
private final class MemoryStore: Store {}
private final class Client: Sendable {
  init() {}
}
private final class Repository: Sendable {
  let client: Client
  let store: any Store
  init(client: Client, store: any Store) {
    self.client = client
    self.store = store
  }
}

/// Takes its parameters borrowed, unlike an initializer: autowiring must accept it too.
private func pair(_ first: Tracked, _ second: Tracked) -> [Tracked] { [first, second] }

private struct Seven: Sendable {
  let parts: [Tracked]
  init(
    _ p1: Tracked, _ p2: Tracked, _ p3: Tracked, _ p4: Tracked, _ p5: Tracked, _ p6: Tracked,
    _ p7: Tracked
  ) {
    parts = [p1, p2, p3, p4, p5, p6, p7]
  }
}

@Suite("Autowiring")
struct AutowiringTests {
  @Test("Initializers, functions and closures of any arity hand each argument over exactly once")
  func argumentOwnership() throws {
    let tracker = LifetimeTracker()
    do {
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Tracked.self, to: { Tracked(tracker) })
          registrar.bind([Tracked].self, to: pair)
          registrar.bind(
            [Tracked].self, tag: "closure", to: { (a: Tracked, b: Tracked) in [a, b] })
          registrar.bind(
            [Tracked].self, tag: "tagged", to: pair, dependencies: .untagged, .untagged)
          registrar.bind(Seven.self, to: Seven.init)
        }
      ).buildOrRecord()
      for _ in 0..<100 {
        let lists = [
          try container.resolve([Tracked].self),
          try container.resolve([Tracked].self, tag: "closure"),
          try container.resolve([Tracked].self, tag: "tagged"),
          try container.resolve(Seven.self).parts,
        ]
        #expect(lists.map(\.count) == [2, 2, 2, 7])
        #expect(Set(lists.joined().map(\.serial)).count == 13)
      }
      #expect(tracker.madeCount == 1_300)
    }
    // Every argument was released once by its owner: none leaked, none freed early.
    #expect(tracker.aliveCount == 0)
  }

  @Test("An initializer's parameters are resolved by type", arguments: LifetimeTests.all)
  func autowire(lifetime: Lifetime) throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Client.self, lifetime: .persistent, to: Client.init)
        registrar.bind((any Store).self, lifetime: .persistent, to: { DiskStore() })
        registrar.bind(
          Repository.self, lifetime: .init(lifetime), to: Repository.init(client:store:))
      }
    ).buildOrRecord()
    let first = try container.resolve(Repository.self)
    let second = try container.resolve(Repository.self)
    #expect(first.client === second.client)
    #expect(first.store is DiskStore)
    let shared = [Lifetime.persistent, .transient, .cached].contains(lifetime)
    #expect((first === second) == shared)
  }

  @Test("Parameters can be tagged; the binding's own tag is not passed on")
  func taggedParameters() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Client.self, lifetime: .persistent, to: Client.init)
        registrar.bind((any Store).self, lifetime: .persistent, to: { MemoryStore() })
        registrar.bind((any Store).self, tag: "disk", lifetime: .persistent, to: { DiskStore() })
        registrar.bind(
          Repository.self, tag: "disk", to: Repository.init(client:store:),
          dependencies: .untagged, .tagged("disk"))
        registrar.bind(Repository.self, tag: "memory", to: Repository.init(client:store:))
      }
    ).buildOrRecord()
    #expect(try container.resolve(Repository.self, tag: "disk").store is DiskStore)
    // No propagation: the "memory" binding's parameters are resolved untagged.
    #expect(try container.resolve(Repository.self, tag: "memory").store is MemoryStore)
  }

  @Test("Autowired bindings declare their parameters as edges")
  func declaredEdges() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Client.self, to: Client.init)
        registrar.bind((any Store).self, tag: "disk", to: { DiskStore() })
        registrar.bind(
          Repository.self, to: Repository.init(client:store:),
          dependencies: .untagged, .tagged("disk", matching: .exact))
      }
    ).buildOrRecord()
    let edges = container.graph.edges.map { "\($0.from) → \($0.to)" }
    #expect(edges == ["Repository → Client", "Repository → Store (tag \"disk\")"])
    #expect(container.graph.nodes.allSatisfy { $0.isChecked })
  }
}
