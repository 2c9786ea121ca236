import Joinery
import Testing

private final class Pool: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

private protocol Storage: Sendable {}
private final class DiskStorage: Storage {}

private final class Repository: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}

private final class PoolPair: Sendable {
  let first: Pool
  let second: Pool
  init(first: Pool, second: Pool) {
    self.first = first
    self.second = second
  }
}

private struct PoolUnavailable: Error {}

private final class AsyncService: Sendable {
  let repository: Repository
  let pool: Pool
  init(repository: Repository, pool: Pool) {
    self.repository = repository
    self.pool = pool
  }
}

/// Async bindings honour every lifetime, take the autowired and checked forms, tags and
/// forwards, and `build()` refuses synchronous bindings that need them.
@Suite("Async binding forms and lifetimes")
struct AsyncFormsTests {
  /// A container binding `Pool` with `lifetime`, each creation counted in `made` and taking
  /// `milliseconds` (long enough, at 20, for concurrent requests to arrive while it runs), and
  /// whatever `more` binds.
  static func container(
    _ lifetime: Lifetime, made: Locked<Int>, milliseconds: UInt64 = 0,
    more: @escaping @Sendable (inout Registrar) -> Void = { _ in }
  ) throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, lifetime: .init(lifetime)) { _ in
          let id = made.withLock {
            $0 += 1
            return $0
          }
          try await Task.sleep(nanoseconds: max(milliseconds * 1_000_000, 1_000))
          return Pool(id: id)
        }
        more(&registrar)
      }
    ).build()
  }

  @Test("cached: one instance until its group is reset, then a new one")
  func cached() async throws {
    let made = Locked(0)
    let container = try Self.container(.cached, made: made)
    let first = try await container.resolveAsync(Pool.self)
    #expect(try await container.resolveAsync(Pool.self) === first)
    container.reset()
    let second = try await container.resolveAsync(Pool.self)
    #expect(second !== first)
    #expect(try await container.resolveAsync(Pool.self) === second)
    #expect(made.withLock { $0 } == 2)
    #expect(container.bindings.first { $0.key == BindingKey(Pool.self) }?.lifetime == .cached)
  }

  @Test("transient: shared while held, a new one after release")
  func transient() async throws {
    let made = Locked(0)
    let container = try Self.container(.transient, made: made)
    var held: Pool? = try await container.resolveAsync(Pool.self)
    let firstID = held?.id
    #expect(try await container.resolveAsync(Pool.self).id == firstID)
    held = nil
    let next = try await container.resolveAsync(Pool.self)
    #expect(next.id != firstID)
    #expect(made.withLock { $0 } == 2)
    _ = held
  }

  @Test("transient: 16 concurrent requests while it is made share one creation")
  func transientSingleFlight() async throws {
    let made = Locked(0)
    let container = try Self.container(.transient, made: made, milliseconds: 20)
    let pools = try await withThrowingTaskGroup(of: Pool.self) { group in
      for _ in 0..<16 { group.addTask { try await container.resolveAsync(Pool.self) } }
      return try await group.reduce(into: [Pool]()) { $0.append($1) }
    }
    #expect(Set(pools.map(ObjectIdentifier.init)).count == 1)
    #expect(made.withLock { $0 } == 1)
    // Held here, so still shared.
    #expect(try await container.resolveAsync(Pool.self) === pools[0])
  }

  @Test("ephemeral: a new instance every time")
  func ephemeral() async throws {
    let made = Locked(0)
    let container = try Self.container(.ephemeral, made: made)
    let first = try await container.resolveAsync(Pool.self)
    #expect(try await container.resolveAsync(Pool.self) !== first)
  }

  @Test("graph: one instance per top-level resolveAsync, shared by everything it awaits")
  func graph() async throws {
    let made = Locked(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, lifetime: .graph) { _ in
          Pool(
            id: made.withLock {
              $0 += 1
              return $0
            })
        }
        registrar.bindAsync(Repository.self, to: Repository.init(pool:))
        registrar.bindAsync(AsyncService.self, to: AsyncService.init(repository:pool:))
      }
    ).build()
    let service = try await container.resolveAsync(AsyncService.self)
    #expect(service.pool === service.repository.pool)
    let other = try await container.resolveAsync(AsyncService.self)
    #expect(other.pool !== service.pool)
    #expect(made.withLock { $0 } == 2)
  }

  @Test("graph: async let siblings share one creation of an async graph binding")
  func graphSiblingsShareCreation() async throws {
    let made = Locked(0)
    let container = try Self.container(.graph, made: made, milliseconds: 20) { registrar in
      registrar.bindAsync(PoolPair.self) { resolver in
        async let first = resolver.resolveAsync(Pool.self)
        async let second = resolver.resolveAsync(Pool.self)
        return PoolPair(first: try await first, second: try await second)
      }
    }
    let pair = try await container.resolveAsync(PoolPair.self)
    #expect(pair.first === pair.second)
    #expect(made.withLock { $0 } == 1)
    let next = try await container.resolveAsync(PoolPair.self)
    #expect(next.first !== pair.first, "a new top-level resolveAsync makes a new one")
    #expect(made.withLock { $0 } == 2)
  }

  @Test(
    "graph: a failed creation is forgotten; the next request in the same resolution tries again")
  func graphFailureIsRetried() async throws {
    let attempts = Locked(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, lifetime: .graph) { _ in
          let attempt = attempts.withLock {
            $0 += 1
            return $0
          }
          if attempt == 1 { throw PoolUnavailable() }
          return Pool(id: attempt)
        }
        registrar.bindAsync(PoolPair.self) { resolver in
          let failed = await #expect(throws: ResolutionError.self) {
            try await resolver.resolveAsync(Pool.self)
          }
          #expect(failed?.code == .factoryFailed)
          let pool = try await resolver.resolveAsync(Pool.self)
          // Made now, and shared from here on.
          return PoolPair(first: pool, second: try await resolver.resolveAsync(Pool.self))
        }
      }
    ).build()
    let pair = try await container.resolveAsync(PoolPair.self)
    #expect(pair.first.id == 2)
    #expect(pair.first === pair.second)
    #expect(attempts.withLock { $0 } == 2)
  }

  @Test("16 concurrent awaits of a cached async binding make one instance")
  func cachedSingleFlight() async throws {
    let made = Locked(0)
    let container = try Self.container(.cached, made: made)
    let ids = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<16 { group.addTask { try await container.resolveAsync(Pool.self).id } }
      return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
    }
    #expect(ids.count == 1)
    #expect(made.withLock { $0 } == 1)
  }

  @Test("The autowired async form awaits async dependencies and is checked by build()")
  func autowiredAsync() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, lifetime: .persistent) { _ in Pool(id: 7) }
        registrar.bindAsync(Repository.self, lifetime: .persistent, to: Repository.init(pool:))
      }
    ).build()
    #expect(try await container.resolveAsync(Repository.self).pool.id == 7)

    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(Repository.self, to: Repository.init(pool:))
        }
      ).build()
    }
    #expect(error?.diagnostics.first?.code == .missingDependency)
  }

  @Test("dependsOn: on an async closure is checked by build()")
  func declaredAsync() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(Repository.self, dependsOn: [BindingKey(Pool.self)]) { resolver in
            Repository(pool: try await resolver.resolveAsync())
          }
        }
      ).build()
    }
    #expect(error?.diagnostics.first?.code == .missingDependency)
  }

  @Test("A tagged async binding resolves by its tag, and a tagged request falls back")
  func tagged() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, tag: "replica", lifetime: .persistent) { _ in Pool(id: 2) }
        registrar.bindAsync(Pool.self, lifetime: .persistent) { _ in Pool(id: 1) }
      }
    ).build()
    #expect(try await container.resolveAsync(Pool.self, tag: "replica").id == 2)
    #expect(try await container.resolveAsync(Pool.self).id == 1)
    #expect(try await container.resolveAsync(Pool.self, tag: "other").id == 1)
    await #expect(throws: ResolutionError.self) {
      try await container.resolveAsync(Pool.self, tag: "other", matching: .exact)
    }
  }

  @Test("A forward to an async binding resolves through resolveAsync, the same instance")
  func forwardToAsync() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(DiskStorage.self, lifetime: .persistent) { _ in DiskStorage() }
        registrar.bind((any Storage).self, forwardingTo: DiskStorage.self)
      }
    ).build()
    let storage = try await container.resolveAsync((any Storage).self)
    let disk = try await container.resolveAsync(DiskStorage.self)
    #expect((storage as? DiskStorage) === disk)
  }

  @Test("build() refuses a synchronous binding that depends on an async one, with the fix")
  func syncOnAsyncIsABuildError() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(Pool.self, lifetime: .persistent) { _ in Pool(id: 1) }
          registrar.bind(Repository.self, lifetime: .persistent, to: Repository.init(pool:))
        }
      ).build()
    }
    let finding = try #require(error?.diagnostics.first)
    #expect(finding.code == .asyncDependency)
    #expect(finding.message.contains("Repository"))
    #expect(
      finding.fixes.contains { $0.contains("bindAsync(Repository.self, to: Repository.init)") })
  }

  @Test("An eager async persistent is created by buildAsync; build() warns that it cannot")
  func eagerAsync() async throws {
    let made = Locked(0)
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, lifetime: .persistent(eager: true)) { _ in
          Pool(
            id: made.withLock {
              $0 += 1
              return $0
            })
        }
      })
    let built = try builder.build()
    #expect(made.withLock { $0 } == 0)
    #expect(built.warnings.contains { $0.code == .eagerAsyncBinding })
    let started = try await builder.buildAsync()
    #expect(made.withLock { $0 } == 1)
    #expect(started.warnings.allSatisfy { $0.code != .eagerAsyncBinding })
    #expect(try await started.resolveAsync(Pool.self).id == 1)
    #expect(made.withLock { $0 } == 1)
  }
}

@MainActor
private final class Dashboard {
  let repository: Repository
  init(repository: Repository) { self.repository = repository }
}

@Suite("Verifying graphs with async and main-actor bindings")
struct AsyncVerificationTests {
  static func container() throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, lifetime: .persistent) { _ in Pool(id: 1) }
        registrar.bindAsync(Repository.self, lifetime: .persistent, to: Repository.init(pool:))
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bindMainActor(Dashboard.self) { _ in
          Dashboard(repository: Repository(pool: Pool(id: 0)))
        }
      }
    ).build()
  }

  @Test("verifyAsync creates async and main-actor bindings too; nothing is skipped")
  func verifyAsyncCoversEverything() async throws {
    let report = try await Self.container().verifyAsync()
    #expect(report.skipped.isEmpty)
    #expect(report.verified.count == 4)
  }

  @Test("verify() off the main thread skips async and main-actor bindings instead of failing")
  func verifySkips() async throws {
    let container = try Self.container()
    let outcome = await Stress.onThread { () -> [String]? in
      (try? container.verify())?.skipped.map { "\($0.key.type)" }.sorted()
    }
    #expect(outcome == ["Dashboard", "Pool", "Repository"])
  }

  @Test("verifyAsync reports an async factory that fails, with every other binding verified")
  func verifyAsyncReportsFailures() async throws {
    struct Offline: Error {}
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, lifetime: .persistent) { _ in throw Offline() }
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
      }
    ).build()
    let error = await #expect(throws: VerificationError.self) { try await container.verifyAsync() }
    #expect(error?.failures.map(\.code) == [.factoryFailed])
    #expect(error?.report.verified == [BindingKey(ServiceC.self)])
  }
}

@Suite("Async contributions")
struct AsyncContributionTests {
  @Test("resolveAllAsync awaits async contributions and keeps registration order")
  func resolveAllAsync() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.contributeAsync(Pool.self) { _ in
          try await Task.sleep(nanoseconds: 1_000)
          return Pool(id: 1)
        }
        registrar.contribute(Pool.self) { _ in Pool(id: 2) }
        registrar.contributeAsync(Pool.self, lifetime: .persistent) { _ in Pool(id: 3) }
        registrar.contributeAsync(Pool.self, tag: "other") { _ in Pool(id: 4) }
      }
    ).build()
    let pools = try await container.resolveAllAsync(Pool.self)
    #expect(pools.map(\.id) == [1, 2, 3])
    let again = try await container.resolveAllAsync(Pool.self)
    #expect(again[2] === pools[2])
    #expect(again[0] !== pools[0])
    #expect(try await container.resolveAllAsync(Pool.self, tag: "other").map(\.id) == [4])
  }

  @Test(
    "contributeAsync(_:to:) awaits each parameter, is checked by build(), and keeps its lifetime")
  func autowiredContributions() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Pool.self, lifetime: .persistent) { _ in Pool(id: 7) }
        registrar.bindAsync(Pool.self, tag: "spare", lifetime: .persistent) { _ in Pool(id: 8) }
        registrar.contributeAsync(Repository.self, to: Repository.init(pool:))
        registrar.contributeAsync(
          Repository.self, lifetime: .persistent, to: Repository.init(pool:),
          dependencies: .tagged("spare"))
        registrar.contributeAsync(Repository.self, tag: "other") { (pool: Pool) async in
          Repository(pool: pool)
        }
      }
    ).build()
    let repositories = try await container.resolveAllAsync(Repository.self)
    #expect(repositories.map(\.pool.id) == [7, 8])
    let again = try await container.resolveAllAsync(Repository.self)
    #expect(again[0] !== repositories[0])  // ephemeral: a new one every time
    #expect(again[1] === repositories[1])  // persistent: kept
    #expect(try await container.resolveAllAsync(Repository.self, tag: "other").count == 1)

    // Each parameter is a declared dependency: a missing one fails the build.
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.contributeAsync(Repository.self, to: Repository.init(pool:))
        }
      ).build()
    }
    #expect(error?.diagnostics.first?.code == .missingDependency)
    let tagged = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(Pool.self) { _ in Pool(id: 1) }
          registrar.contributeAsync(
            Repository.self, to: Repository.init(pool:),
            dependencies: .tagged("spare", matching: .exact))
        }
      ).build()
    }
    #expect(tagged?.diagnostics.first?.code == .missingDependency)
  }
}

/// A helper a factory passes its resolver to.
private func leasedPool(_ resolver: AsyncResolver) async throws -> Pool {
  Pool(id: try await resolver.resolveAsync(Int.self))
}

private func leasedPool(_ resolver: AsyncResolver, offset: Int) async throws -> Pool {
  Pool(id: try await resolver.resolveAsync(Int.self) + offset)
}

extension AsyncFormsTests {
  @Test("A trailing closure that hands its resolver to a helper is the factory, not an initializer")
  func trailingClosureIsTheFactory() async throws {
    // Swift once ranked the autowired `to:` forms first for these closures, so the resolver
    // was taken for a dependency to resolve ("Pool depends on AsyncResolver").
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Int.self, instance: 7)
        registrar.bindAsync(Pool.self) { resolver in try await leasedPool(resolver) }
        registrar.bindAsync(Pool.self, tag: "typed") { (resolver: AsyncResolver) in
          try await leasedPool(resolver)
        }
        registrar.bindAsync(Pool.self) { resolver, offset in
          try await leasedPool(resolver, offset: offset)
        }
        registrar.contributeAsync(Pool.self) { resolver in try await leasedPool(resolver) }
        // An initializer given as a trailing closure is still autowired.
        registrar.bindAsync(Repository.self) { (pool: Pool) in Repository(pool: pool) }
      }
    ).build()
    #expect(try await container.resolveAsync(Pool.self).id == 7)
    #expect(try await container.resolveAsync(Pool.self, tag: "typed").id == 7)
    #expect(try await container.resolveAsync(Pool.self, arguments: 3).id == 10)
    #expect(try await container.resolveAllAsync(Pool.self).map(\.id) == [7])
    #expect(try await container.resolveAsync(Repository.self).pool.id == 7)
  }
}
