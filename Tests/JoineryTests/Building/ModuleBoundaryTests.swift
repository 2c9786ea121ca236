import Joinery
import Testing

// A feature that keeps its implementation private and exports a protocol.
private protocol Feeding: Sendable { var store: Store { get } }
private final class Store: Sendable {
  let owner: String
  init(owner: String) { self.owner = owner }
}
private final class FeedService: Feeding {
  let store: Store
  init(store: Store) { self.store = store }
}
private final class ProfileService: Sendable {
  let store: Store
  init(store: Store) { self.store = store }
}
private final class Client: Sendable {}

private struct FeedModule: Assembly {
  func register(in registrar: inout Registrar) {
    // Explicit lines, so that the tests can look for them in reports.
    registrar.bind(Store.self, lifetime: .persistent, private: true, line: 1022) { _ in
      Store(owner: "feed")
    }
    registrar.bind(FeedService.self, private: true, to: FeedService.init(store:))
    registrar.bind((any Feeding).self, forwardingTo: FeedService.self)
  }
}

private struct ProfileModule: Assembly {
  func register(in registrar: inout Registrar) {
    // Its own private Store: no duplicate of FeedModule's.
    registrar.bind(Store.self, lifetime: .persistent, private: true) { _ in
      Store(owner: "profile")
    }
    registrar.bind(ProfileService.self, to: ProfileService.init(store:))
  }
}

/// Depends on FeedModule's private Store, declared: refused by build().
private struct Intruder: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(ProfileService.self, line: 1041, to: ProfileService.init(store:))
  }
}

/// Resolves FeedModule's private Store from an unchecked closure: refused at resolve time.
private struct SneakyIntruder: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(ProfileService.self) { resolver in ProfileService(store: try resolver.resolve())
    }
  }
}

/// A plain register: transparent, its bindings join the including assembly's module.
private struct FeedHelpers: DependencyRegister {
  func register(in registrar: inout Registrar) {
    registrar.bind(Client.self, private: true) { _ in Client() }
  }
}

private struct FeedWithHelpers: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.include(FeedHelpers())
    registrar.bind(String.self, private: true) { (_: Client) in "made with a client" }
    registrar.bind(Int.self) { (text: String) in text.count }
  }
}

@Suite("Module boundaries: private bindings")
struct PrivateBindingTests {
  @Test("An assembly's bindings use its private ones; the exported protocol resolves")
  func ownBindingsSeePrivate() throws {
    let container = try ContainerBuilder(FeedModule()).build()
    let feed = try container.resolve((any Feeding).self)
    #expect(feed.store.owner == "feed")
    #expect(feed.store === (try container.resolve((any Feeding).self)).store)
  }

  @Test("A resolve from outside the assembly is refused, naming the assembly and the fix")
  func outsideResolveIsRefused() throws {
    let container = try ContainerBuilder(FeedModule()).build()
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Store.self) }
    #expect(error?.code == .missingBinding)
    let text = error?.debugDescription ?? ""
    #expect(text.contains("private to FeedModule"))
    #expect(text.contains("ModuleBoundaryTests.swift:1022"))
    #expect(text.contains("drop `private: true`"))
  }

  @Test("Two assemblies may each keep a private binding of one key; each gets its own")
  func samePrivateKeyInTwoModules() throws {
    let container = try ContainerBuilder(FeedModule(), ProfileModule()).build()
    #expect(try container.resolve((any Feeding).self).store.owner == "feed")
    #expect(try container.resolve(ProfileService.self).store.owner == "profile")
  }

  @Test("A declared dependency on another assembly's private binding fails build(), naming both")
  func declaredDependencyIsRefused() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(FeedModule(), Intruder()).build()
    }
    let finding = try #require(error?.diagnostics.first { $0.code == .privateDependency })
    #expect(finding.isError)
    #expect(finding.message.contains("Intruder's ProfileService"))
    #expect(finding.message.contains("FeedModule keeps private"))
    #expect(finding.message.contains("ModuleBoundaryTests.swift:1022"))
    #expect(finding.message.contains("ModuleBoundaryTests.swift:1041"))
    #expect(finding.fixes.contains { $0.contains("registrar.overriding(FeedModule.self)") })
    // Refused, not also reported missing.
    #expect(error?.diagnostics.contains { $0.code == .missingDependency } == false)
  }

  @Test("An unchecked factory of another assembly cannot resolve a private binding")
  func runtimeResolveIsRefused() throws {
    let container = try ContainerBuilder(FeedModule(), SneakyIntruder()).build()
    let error = #expect(throws: ResolutionError.self) {
      try container.resolve(ProfileService.self)
    }
    let text = error?.debugDescription ?? ""
    #expect(text.contains("private to FeedModule"))
    #expect(text.contains("SneakyIntruder's ProfileService"))
  }

  @Test("A plain register's bindings join the including assembly's module")
  func plainRegisterIsTransparent() throws {
    let container = try ContainerBuilder(FeedWithHelpers()).build()
    #expect(try container.resolve(Int.self) == "made with a client".count)
    let client = try #require(container.bindings.first { $0.key == BindingKey(Client.self) })
    #expect(client.isPrivate)
    #expect(client.assembly == FeedWithHelpers.self)
  }

  @Test("private: outside any assembly is an error: there is no boundary")
  func privateOutsideAssembly() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(FeedHelpers()).build()
    }
    let finding = try #require(error?.diagnostics.first)
    #expect(finding.code == .invalidSetting)
    #expect(finding.message.contains("not inside any Assembly"))
  }

  @Test("A key bound privately and for everyone is a duplicate that says how to override")
  func privateAndSharedIsDuplicate() throws {
    struct Replacement: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bind(Store.self, override: true) { _ in Store(owner: "test") }
      }
    }
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(FeedModule()).overriding(with: Replacement()).build()
    }
    let finding = try #require(error?.diagnostics.first { $0.code == .duplicateBinding })
    #expect(finding.message.contains("privately by FeedModule"))
    #expect(finding.fixes.first?.contains("registrar.overriding(FeedModule.self)") == true)
    #expect(error?.diagnostics.contains { $0.code == .overrideWithoutTarget } == false)
  }

  @Test("overriding(_:_:) replaces an assembly's private binding, which stays private")
  func overridePrivate() throws {
    struct FeedInternals: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.overriding(FeedModule.self) { registrar in
          registrar.bind(Store.self) { _ in Store(owner: "test double") }
        }
      }
    }
    let container = try ContainerBuilder(FeedModule(), FeedInternals(), ProfileModule()).build()
    #expect(try container.resolve((any Feeding).self).store.owner == "test double")
    #expect(try container.resolve(ProfileService.self).store.owner == "profile")
    #expect(throws: ResolutionError.self) { try container.resolve(Store.self) }
    #expect(container.warnings.isEmpty)
  }

  @Test("A Provider or Lazy of a private binding makes it later, for its own assembly only")
  func providerOfPrivate() async throws {
    final class Holder: Sendable {
      let clients: Provider<Client>
      let lazyStore: Lazy<Store>
      init(clients: Provider<Client>, lazyStore: Lazy<Store>) {
        self.clients = clients
        self.lazyStore = lazyStore
      }
    }
    struct Deferred: Assembly {
      func register(in registrar: inout Registrar) {
        // The private binding the Provider makes has a private dependency of its own.
        registrar.bind(Store.self, lifetime: .persistent, private: true) { _ in
          Store(owner: "deferred")
        }
        registrar.bind(Client.self, private: true) { (_: Store) in Client() }
        registrar.bindAsync(String.self, private: true) { _ in "async and private" }
        registrar.bind(Holder.self, lifetime: .persistent, to: Holder.init)
        registrar.bind(Int.self) { (texts: Provider<String>) in
          _ = texts
          return 1
        }
      }
    }
    let container = try ContainerBuilder(Deferred()).build()
    #expect(container.warnings.isEmpty)
    let holder = try container.resolve(Holder.self)
    // Read after the build, outside every factory: the private bindings are made all the same.
    let first = try holder.clients.get()
    #expect(try holder.clients.get() !== first)
    #expect(try holder.lazyStore.get().owner == "deferred")
    // Nothing outside the assembly reaches them.
    #expect(throws: ResolutionError.self) { try container.resolve(Client.self) }
    #expect(throws: ResolutionError.self) { try container.resolve(Provider<Client>.self).get() }
    // An async private binding, through a Provider made by the assembly's binding.
    struct AsyncHolder: Assembly {
      final class Reader: Sendable {
        let text: Provider<String>
        init(text: Provider<String>) { self.text = text }
      }
      func register(in registrar: inout Registrar) {
        registrar.bindAsync(String.self, private: true) { _ in "async and private" }
        registrar.bind(Reader.self, to: Reader.init)
      }
    }
    let asyncContainer = try ContainerBuilder(AsyncHolder()).build()
    let reader = try asyncContainer.resolve(AsyncHolder.Reader.self)
    #expect(try await reader.text.getAsync() == "async and private")
  }

  @Test("verify() draws the edges an unchecked factory takes to a private binding")
  func observedEdgeToPrivate() throws {
    struct Unchecked: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bind(Store.self, private: true) { _ in Store(owner: "unchecked") }
        registrar.bind(ProfileService.self) { resolver in
          ProfileService(store: try resolver.resolve(Store.self))
        }
      }
    }
    let report = try ContainerBuilder(Unchecked()).build().verify()
    let observed = report.graph.edges.filter(\.isObserved)
    #expect(observed.map(\.to) == [BindingKey(Store.self)])
    // Drawn between the two nodes, the private one included.
    let mermaid = report.graph.mermaid
    #expect(mermaid.contains("n0 -.-> n1") || mermaid.contains("n1 -.-> n0"))
  }

  @Test("A Provider of another assembly's private binding is refused at build")
  func providerOfOthersPrivate() throws {
    struct Owner: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bind(Client.self, private: true, to: Client.init)
      }
    }
    struct Other: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bind(String.self) { (client: Provider<Client>) in "\(client)" }
      }
    }
    let error = #expect(throws: BuildError.self) { try ContainerBuilder(Owner(), Other()).build() }
    let finding = try #require(error?.diagnostics.first)
    #expect(finding.code == .privateDependency)
    #expect(finding.message.contains("depends on Client, which Owner keeps private"))
  }

  @Test("A private contribution is in the collection its own assembly sees, not others'")
  func privateContribution() async throws {
    struct Plugins: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.contribute(String.self) { _ in "shared" }
        registrar.contribute(String.self, private: true) { _ in "internal" }
        registrar.contribute(Character.self) { _ in "s" }
        registrar.contributeAsync(Character.self, private: true) { _ in "i" }
        registrar.bind(Int.self) { resolver in try resolver.resolveAll(String.self).count }
        registrar.bindAsync(Double.self) { resolver in
          Double(try await resolver.resolveAllAsync(Character.self).count)
        }
      }
    }
    struct Outsider: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bind(UInt.self) { resolver in UInt(try resolver.resolveAll(String.self).count) }
      }
    }
    let container = try ContainerBuilder(Plugins(), Outsider()).build()
    #expect(try container.resolveAll(String.self) == ["shared"])
    #expect(try container.resolve(UInt.self) == 1)
    #expect(try container.resolve(Int.self) == 2)
    #expect(try await container.resolveAsync(Double.self) == 2)
    #expect(try await container.resolveAllAsync(Character.self) == ["s"])
  }

  @Test("A private scope value is provided to its assembly's bindings")
  func privateScopeValue() async throws {
    struct Requests: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bindScopeValue(String.self, private: true)
        registrar.bind(Int.self, lifetime: .scoped) { (request: String) in request.count }
      }
    }
    let container = try ContainerBuilder(Requests()).build()
    let scope = try container.makeScope { values in values.provide("GET /feed") }
    #expect(try scope.resolve(Int.self) == 9)
    #expect(throws: ResolutionError.self) { try scope.resolve(String.self) }
    try await scope.close()
  }

  @Test("BindingInfo names the assembly and marks private bindings")
  func bindingInfo() throws {
    let container = try ContainerBuilder(FeedModule()).build()
    let store = try #require(container.bindings.first { $0.key == BindingKey(Store.self) })
    #expect(store.isPrivate)
    #expect(store.assembly == FeedModule.self)
    #expect(store.description.contains("(private to FeedModule)"))
    let exported = try #require(
      container.bindings.first { $0.key == BindingKey((any Feeding).self) })
    #expect(!exported.isPrivate)
    #expect(exported.assembly == FeedModule.self)
  }

  @Test("An async factory resolves its module's private bindings, sync and async")
  func asyncPrivate() async throws {
    struct AsyncFeed: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bind(Store.self, lifetime: .persistent, private: true) { _ in
          Store(owner: "sync")
        }
        registrar.bindAsync(Client.self, private: true) { _ in Client() }
        registrar.bindAsync(FeedService.self) { resolver in
          _ = try await resolver.resolveAsync(Client.self)
          // A synchronous resolve below the async factory sees the private binding too.
          let store = try resolver.resolve(Store.self)
          #expect(try await resolver.resolveAsync(Store.self) === store)
          return FeedService(store: store)
        }
      }
    }
    let container = try ContainerBuilder(AsyncFeed()).build()
    #expect(try await container.resolveAsync(FeedService.self).store.owner == "sync")
    await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Client.self) }
  }
}

@Suite("Module boundaries: requirements and checking an assembly alone")
struct RequirementTests {
  struct Networking: Assembly {
    func register(in registrar: inout Registrar) {
      registrar.bind(Client.self, lifetime: .persistent) { _ in Client() }
    }
  }

  struct Needy: Assembly {
    func register(in registrar: inout Registrar) {
      registrar.require(Client.self, line: 1216)
      registrar.bind(Store.self) { (_: Client) in Store(owner: "needy") }
    }
  }

  /// Depends on Client and on ProfileService without declaring either.
  struct Careless: Assembly {
    func register(in registrar: inout Registrar) {
      registrar.bind(Store.self) { (_: Client, _: ProfileService) in Store(owner: "careless") }
    }
  }

  @Test("A met requirement builds")
  func met() throws {
    let container = try ContainerBuilder(Needy(), Networking()).build()
    #expect(try container.resolve(Store.self).owner == "needy")
  }

  @Test("An unmet requirement is reported first, naming the assembly and the line")
  func unmet() throws {
    let error = #expect(throws: BuildError.self) { try ContainerBuilder(Needy()).build() }
    let first = try #require(error?.diagnostics.first)
    #expect(first.code == .unmetRequirement)
    #expect(first.message.contains("Needy requires Client"))
    #expect(first.message.contains("ModuleBoundaryTests.swift:1216"))
    // The missing dependency it causes comes after it.
    #expect(error?.diagnostics.dropFirst().contains { $0.code == .missingDependency } == true)
  }

  @Test("validate() checks an assembly alone: requirements count as bound")
  func validateAlone() throws {
    let warnings = try Needy().validate()
    #expect(warnings.isEmpty)
  }

  @Test("validate() reports every undeclared outside dependency at once, with the fix")
  func validateReportsGaps() throws {
    let error = #expect(throws: BuildError.self) { try Careless().validate() }
    let missing = error?.diagnostics.filter { $0.code == .missingDependency } ?? []
    #expect(missing.count == 2)
    #expect(missing.allSatisfy { $0.fixes.first?.contains("registrar.require") == true })
    #expect(missing.allSatisfy { $0.fixes.first?.contains("in Careless") == true })
  }

  @Test("validate() refuses a dependency on another included assembly's private binding")
  func validateSeesPrivate() throws {
    struct App: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.include(FeedModule())
        registrar.include(Intruder())
      }
    }
    let error = #expect(throws: BuildError.self) { try App().validate() }
    #expect(error?.diagnostics.contains { $0.code == .privateDependency } == true)
  }
}

@Suite("Module boundaries: the graph")
struct ModuleGraphTests {
  struct Networking: Assembly {
    func register(in registrar: inout Registrar) {
      registrar.bind(Client.self, lifetime: .persistent, to: Client.init)
    }
  }

  struct Feed: Assembly {
    func register(in registrar: inout Registrar) {
      registrar.require(Client.self)
      registrar.bind(Store.self, lifetime: .persistent, private: true) { (_: Client) in
        Store(owner: "feed")
      }
      registrar.bind(FeedService.self, to: FeedService.init(store:))
    }
  }

  struct Profile: Assembly {
    func register(in registrar: inout Registrar) {
      registrar.bind(Store.self, lifetime: .persistent, private: true) { _ in
        Store(owner: "profile")
      }
      registrar.bind(ProfileService.self, to: ProfileService.init(store:))
    }
  }

  @Test("Mermaid groups bindings by assembly, marks private ones and shows requirements")
  func mermaid() throws {
    let container = try ContainerBuilder(Networking(), Feed(), Profile()).build()
    let expected = """
      graph LR
        subgraph a0["Feed"]
          n1["FeedService<br/>ephemeral · Feed"]
          n3["Store<br/>persistent · Feed · private"]
          r0(["requires Client"]):::requirement
        end
        subgraph a1["Networking"]
          n0["Client<br/>persistent · Networking"]
        end
        subgraph a2["Profile"]
          n2["ProfileService<br/>ephemeral · Profile"]
          n4["Store<br/>persistent · Profile · private · unchecked"]:::unchecked
        end
        n1 --> n3
        n2 --> n4
        n3 --> n0
        r0 -.->|met by| n0
        classDef unchecked stroke-dasharray: 5 3
        classDef private fill:#eeeeee,stroke:#888888
        class n3,n4 private
        classDef requirement stroke-dasharray: 2 2
      """
    #expect(container.graph.mermaid == expected)
  }

  @Test("DOT puts each assembly in a cluster")
  func dot() throws {
    let dot = try ContainerBuilder(Networking(), Feed(), Profile()).build().graph.dot
    #expect(dot.contains("subgraph cluster_a0 {\n    label=\"Feed\";"))
    #expect(dot.contains("fillcolor=\"#eeeeee\""))
    #expect(dot.contains("r0 [label=\"requires Client\", style=\"rounded,dotted\"];"))
    #expect(dot.contains("r0 -> n0 [style=dotted, label=\"met by\"];"))
  }

  @Test("The tree marks where it enters another assembly and what is private")
  func tree() throws {
    let graph = try ContainerBuilder(Networking(), Feed(), Profile()).build().graph
    let expected = """
      FeedService [ephemeral] (in Feed)
      └─ Store [persistent] (private)
         └─ Client [persistent] (in Networking)
      """
    #expect(graph.tree(from: BindingKey(FeedService.self)) == expected)
  }
}
