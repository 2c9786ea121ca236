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

@Suite("Autowiring")
struct AutowiringTests {
  @Test("An initializer's parameters are resolved by type", arguments: LifetimeTests.all)
  func autowire(lifetime: Lifetime) throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Client.self, lifetime: .persistent, to: Client.init)
        registrar.bind((any Store).self, lifetime: .persistent, to: { DiskStore() })
        registrar.bind(Repository.self, lifetime: lifetime, to: Repository.init(client:store:))
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
