import Joinery
import Testing

// Every autowired form takes `dependencies:` the same way: one per parameter, in order.
private enum Store: Hashable, Sendable { case disk, memory }
private final class Cache: Sendable {
  let store: Store
  init(_ store: Store) { self.store = store }
}

private protocol Plugin: Sendable { var cache: Cache { get } }
private final class Exporter: Plugin {
  let cache: Cache
  init(cache: Cache) { self.cache = cache }
}

private final class Replica: Sendable {
  let cache: Cache
  init(cache: Cache) async { self.cache = cache }
}

@MainActor
private final class Panel {
  let cache: Cache
  let backup: Cache
  init(cache: Cache, backup: Cache) {
    self.cache = cache
    self.backup = backup
  }
}

private func tagged(_ extra: @escaping @Sendable (inout Registrar) -> Void) throws -> Container {
  try ContainerBuilder().adding { registrar in
    registrar.bind(Cache.self, tag: Store.disk, lifetime: .persistent) { Cache(.disk) }
    registrar.bind(Cache.self, tag: Store.memory, lifetime: .persistent) { Cache(.memory) }
    extra(&registrar)
  }.build()
}

private final class Clock: Sendable {}
private final class Ledger: Sendable {}
private final class Report: Sendable {
  let cache: Cache
  init(clock: Clock, ledger: Ledger, cache: Cache) { self.cache = cache }
}

@Suite("Tagged dependencies on every autowired form")
struct TaggedDependencyFormsTests {
  @Test("The article's recipe: one tagged parameter among untagged ones, checked by build()")
  func oneTaggedAmongMany() throws {
    @Sendable func report(_ registrar: inout Registrar) {
      // As TagsAndFallback.md writes it.
      registrar.bind(
        Report.self,
        dependsOn: [
          BindingKey(Clock.self), BindingKey(Ledger.self), BindingKey(Cache.self, tag: Store.disk),
        ]
      ) { resolver in
        Report(
          clock: try resolver.resolve(), ledger: try resolver.resolve(),
          cache: try resolver.resolve(tag: Store.disk))
      }
    }
    let container = try tagged { registrar in
      registrar.bind(Clock.self, lifetime: .persistent) { Clock() }
      registrar.bind(Ledger.self, lifetime: .persistent) { Ledger() }
      report(&registrar)
    }
    #expect(try container.resolve(Report.self).cache.store == .disk)
    // Without the tagged cache, build() refuses the graph before anything runs.
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(Clock.self, lifetime: .persistent) { Clock() }
        registrar.bind(Ledger.self, lifetime: .persistent) { Ledger() }
        registrar.bind(Cache.self, tag: Store.memory) { Cache(.memory) }
        report(&registrar)
      }.build()
    }
    #expect(error?.description.contains("Cache") == true)
  }

  @Test("contribute(_:to:dependencies:) resolves each parameter with its tag")
  func contribution() throws {
    let container = try tagged { registrar in
      registrar.contribute(
        (any Plugin).self, to: { Exporter(cache: $0) }, dependencies: .tagged(Store.disk))
      registrar.contribute(
        (any Plugin).self, to: { Exporter(cache: $0) }, dependencies: .tagged(Store.memory))
    }
    let stores = try container.resolveAll((any Plugin).self).map(\.cache.store)
    #expect(stores == [.disk, .memory])
  }

  @Test("bindAsync(_:to:dependencies:) awaits each parameter with its tag")
  func async() async throws {
    let container = try tagged { registrar in
      registrar.bindAsync(
        Replica.self, lifetime: .persistent, to: Replica.init(cache:),
        dependencies: .tagged(Store.memory))
    }
    let replica = try await container.resolveAsync(Replica.self)
    #expect(replica.cache.store == .memory)
    #expect(try await container.resolveAsync(Replica.self) === replica)
  }

  @Test("contributeAsync(_:to:dependencies:) awaits each parameter with its tag, in order")
  func asyncContributions() async throws {
    final class Mirror: Sendable {
      let cache: Cache
      let backup: Cache
      init(cache: Cache, backup: Cache) async {
        self.cache = cache
        self.backup = backup
      }
    }
    let container = try tagged { registrar in
      registrar.contributeAsync(
        Mirror.self, to: Mirror.init(cache:backup:),
        dependencies: .tagged(Store.memory), .tagged(Store.disk))
      registrar.contributeAsync(
        Mirror.self, to: Mirror.init(cache:backup:),
        dependencies: .tagged(Store.disk), .untagged)
      registrar.bind(Cache.self, lifetime: .persistent) { Cache(.memory) }
    }
    let mirrors = try await container.resolveAllAsync(Mirror.self)
    #expect(mirrors.map(\.cache.store) == [.memory, .disk])
    #expect(mirrors.map(\.backup.store) == [.disk, .memory])
    #expect(mirrors[0].cache === (try container.resolve(Cache.self, tag: Store.memory)))
  }

  @Test("bindMainActor(_:to:dependencies:) resolves each parameter with its tag")
  @MainActor
  func mainActor() throws {
    let container = try tagged { registrar in
      registrar.bindMainActor(
        Panel.self, to: Panel.init(cache:backup:),
        dependencies: .tagged(Store.memory), .tagged(Store.disk))
    }
    let panel = try container.resolve(Panel.self)
    #expect(panel.cache.store == .memory)
    #expect(panel.backup.store == .disk)
  }

  @Test("build() checks each declared tag on every form")
  func checked() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(Cache.self, tag: Store.disk, lifetime: .persistent) { Cache(.disk) }
        registrar.contribute(
          (any Plugin).self, to: { Exporter(cache: $0) },
          dependencies: .tagged(Store.memory, matching: .exact))
        registrar.bindAsync(
          Replica.self, to: Replica.init(cache:),
          dependencies: .tagged(Store.memory, matching: .exact))
        registrar.bindMainActor(
          Panel.self, to: Panel.init(cache:backup:),
          dependencies: .tagged(Store.disk), .tagged(Store.memory, matching: .exact))
      }.build()
    }
    #expect(error?.diagnostics.count == 3)
    #expect(error?.diagnostics.allSatisfy { $0.code == .missingDependency } == true)
  }
}
