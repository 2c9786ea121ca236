import Foundation
import Joinery
import Testing

// A request-scoped server graph, as a server app declares it.
private struct Request: Sendable, Equatable { let id: Int }
private final class Pool: Sendable {}
private final class UnitOfWork: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}
private final class Orders: Sendable {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}
private final class Payments: Sendable {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}
private final class Checkout: Sendable {
  let orders: Orders
  let payments: Payments
  let request: Request
  init(orders: Orders, payments: Payments, request: Request) {
    self.orders = orders
    self.payments = payments
    self.request = request
  }
}

private func serverContainer(
  _ extra: @escaping @Sendable (inout Registrar) -> Void = { _ in }
) throws -> Container {
  try ContainerBuilder().adding { registrar in
    registrar.bindScopeValue(Request.self)
    registrar.bind(Pool.self, lifetime: .persistent, to: Pool.init)
    registrar.bind(UnitOfWork.self, lifetime: .scoped, to: UnitOfWork.init(pool:))
    registrar.bind(Orders.self, to: Orders.init(work:))
    registrar.bind(Payments.self, to: Payments.init(work:))
    registrar.bind(Checkout.self, to: Checkout.init(orders:payments:request:))
    extra(&registrar)
  }.build()
}

@Suite("Scoped lifetime")
struct ScopeTests {
  @Test("One instance per scope, shared by everything resolved in it; another scope has its own")
  func sharedWithinAScope() throws {
    let container = try serverContainer()
    let first = try container.makeScope { $0.provide(Request(id: 1)) }
    let second = try container.makeScope { $0.provide(Request(id: 2)) }
    let a = try first.resolve(Checkout.self)
    let b = try first.resolve(Checkout.self)
    let c = try second.resolve(Checkout.self)
    // Ephemeral consumers are new, the scoped unit of work under them is the scope's.
    #expect(a !== b)
    #expect(a.orders.work === a.payments.work)
    #expect(a.orders.work === b.orders.work)
    #expect(a.orders.work === (try first.resolve(UnitOfWork.self)))
    #expect(c.orders.work !== a.orders.work)
    // Persistent instances are the container's, whichever scope asks.
    #expect(a.orders.work.pool === c.orders.work.pool)
    #expect(a.request == Request(id: 1) && c.request == Request(id: 2))
  }

  @Test("A scope using many scoped bindings keeps one instance of each, sync and async")
  func manyScopedBindings() async throws {
    // More than a scope keeps inline or finds by searching in order: each is still its own.
    let count = 40
    let container = try ContainerBuilder().adding { registrar in
      for tag in 0..<count {
        registrar.bind(Pool.self, tag: tag, lifetime: .scoped, to: Pool.init)
        registrar.bindAsync(Pool.self, tag: "async \(tag)", lifetime: .scoped) { _ in Pool() }
      }
    }.build()
    let scopes = [container.makeScope(), container.makeScope()]
    var seen: [[ObjectIdentifier]] = []
    for scope in scopes {
      var made: [ObjectIdentifier] = []
      for tag in 0..<count {
        let sync = try scope.resolve(Pool.self, tag: tag)
        let async = try await scope.resolveAsync(Pool.self, tag: "async \(tag)")
        made += [ObjectIdentifier(sync), ObjectIdentifier(async)]
      }
      // A second pass, in reverse, finds the same instances.
      for tag in (0..<count).reversed() {
        #expect(ObjectIdentifier(try scope.resolve(Pool.self, tag: tag)) == made[2 * tag])
        let async = try await scope.resolveAsync(Pool.self, tag: "async \(tag)")
        #expect(ObjectIdentifier(async) == made[2 * tag + 1])
        #expect(scope.hasInstance(of: Pool.self, tag: tag))
      }
      seen.append(made)
    }
    #expect(Set(seen[0] + seen[1]).count == 4 * count)
    for scope in scopes { try await scope.close() }
  }

  @Test("A scoped binding resolved outside any scope is a clear error")
  func outsideAScope() throws {
    let container = try serverContainer()
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Orders.self) }
    #expect(error?.code == .scopeRequired)
    #expect(error?.path.map { "\($0.requested.type)" } == ["Orders", "UnitOfWork"])
    let report = error?.debugDescription ?? ""
    #expect(report.contains("UnitOfWork is scoped, and was requested outside any scope"))
    #expect(report.contains("container.makeScope()"))
  }

  @Test("A shared binding that depends on a scoped one fails build() (captive)")
  func captiveScoped() throws {
    for lifetime in [Lifetime.persistent, .cached, .transient] {
      let declared = #expect(throws: BuildError.self) {
        try serverContainer { registrar in
          registrar.bind(
            Orders.self, tag: "shared", lifetime: .init(lifetime),
            dependsOn: [BindingKey(UnitOfWork.self)]
          ) { resolver in Orders(work: try resolver.resolve()) }
        }
      }
      let finding = declared?.diagnostics.first { $0.code == .captiveDependency }
      #expect(finding != nil, "\(lifetime)")
      #expect(finding?.message.contains("which is scoped") == true)
    }
  }

  @Test("Scope values: declared once, provided per scope, checked by build()")
  func scopeValues() throws {
    let container = try serverContainer()
    // Declared, so a binding depending on it builds.
    let scope = try container.makeScope { $0.provide(Request(id: 7)) }
    #expect(try scope.resolve(Request.self) == Request(id: 7))
    #expect(try scope.resolve(Checkout.self).request.id == 7)
    #expect(scope.hasInstance(of: Request.self))

    // A scope made without it: the report names the value and how to provide it.
    let bare = container.makeScope()
    let missing = #expect(throws: ResolutionError.self) { try bare.resolve(Checkout.self) }
    #expect(missing?.code == .scopeValueMissing)
    #expect(missing?.debugDescription.contains("values.provide(request)") == true)
    // But what does not need it works in that scope.
    #expect(throws: Never.self) { try bare.resolve(Orders.self) }

    // Providing a value nothing declares is refused.
    #expect(throws: ResolutionError.self) { try container.makeScope { $0.provide("stray") } }

    // Not declaring the value is a build error for its consumers, as for any binding.
    #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(Pool.self, lifetime: .persistent, to: Pool.init)
        registrar.bind(UnitOfWork.self, lifetime: .scoped, to: UnitOfWork.init(pool:))
        registrar.bind(Orders.self, to: Orders.init(work:))
        registrar.bind(Payments.self, to: Payments.init(work:))
        registrar.bind(Checkout.self, to: Checkout.init(orders:payments:request:))
      }.build()
    }
  }

  @Test("hasInstance tells whether the scope made the instance, without making it")
  func hasInstance() throws {
    let container = try serverContainer()
    let scope = try container.makeScope { $0.provide(Request(id: 1)) }
    #expect(!scope.hasInstance(of: UnitOfWork.self))
    #expect(!scope.hasInstance(of: UnitOfWork.self))
    _ = try scope.resolve(Orders.self)
    #expect(scope.hasInstance(of: UnitOfWork.self))
    #expect(!container.makeScope().hasInstance(of: UnitOfWork.self))
    #expect(container.hasInstance(of: Pool.self))
  }

  @Test("hasInstance answers alike on every receiver: what a resolve from there would return")
  func hasInstanceOnEveryReceiver() async throws {
    // Seen from a factory: the pool its own dependency made, and the unit of work of its scope.
    let seen = Journal()
    let container = try serverContainer { registrar in
      registrar.bind(String.self) { resolver in
        seen.note("pool \(resolver.hasInstance(of: Pool.self))")
        seen.note("work \(resolver.hasInstance(of: UnitOfWork.self))")
        return ""
      }
    }
    #expect(!container.hasInstance(of: Pool.self))
    let scope = try container.makeScope { $0.provide(Request(id: 2)) }
    #expect(!scope.hasInstance(of: Pool.self))
    _ = try scope.resolve(Orders.self)
    // The scope sees the container's persistent instance, the container none of the scope's.
    #expect(scope.hasInstance(of: Pool.self) && container.hasInstance(of: Pool.self))
    #expect(scope.hasInstance(of: UnitOfWork.self) && !container.hasInstance(of: UnitOfWork.self))
    _ = try scope.resolve(String.self)
    _ = try container.resolve(String.self)
    #expect(seen.all == ["pool true", "work true", "pool true", "work false"])
    // Ephemeral bindings never have one.
    #expect(!scope.hasInstance(of: Orders.self))
    // Closing and shutting down do not change the answer: a request that made a unit of work
    // is seen to have made one, so its commit fails (`shutDown`) instead of being skipped.
    try await scope.close()
    #expect(scope.hasInstance(of: UnitOfWork.self) && scope.hasInstance(of: Pool.self))
    let open = try container.makeScope { $0.provide(Request(id: 3)) }
    _ = try open.resolve(Orders.self)
    try await container.shutdown()
    #expect(open.hasInstance(of: UnitOfWork.self))
    await #expect(throws: ResolutionError.self) { try await open.resolveAsync(UnitOfWork.self) }
  }

  @Test("A cycle among scoped bindings is reported with its path")
  func scopedCycle() throws {
    final class Left: Sendable {}
    final class Right: Sendable {}
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Left.self, lifetime: .scoped) { resolver in
        _ = try resolver.resolve(Right.self)
        return Left()
      }
      registrar.bind(Right.self, lifetime: .scoped) { resolver in
        _ = try resolver.resolve(Left.self)
        return Right()
      }
    }.build()
    let error = #expect(throws: ResolutionError.self) {
      try container.makeScope().resolve(Left.self)
    }
    #expect(error?.code == .cycle)
    #expect(error?.cycle.map { "\($0.type)" } == ["Left", "Right", "Left"])
  }

  @Test("A scoped binding that reaches itself through a scope its factory makes is a cycle")
  func scopedCycleThroughNewScope() throws {
    final class Handler: Sendable {}
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Handler.self, lifetime: .scoped) { resolver in
        _ = try resolver.resolve(ScopeFactory.self).makeScope().resolve(Handler.self)
        return Handler()
      }
    }.build()
    let scope = container.makeScope()
    let error = #expect(throws: ResolutionError.self) { try scope.resolve(Handler.self) }
    #expect(error?.code == .cycle)
    #expect(error?.cycle.map { "\($0.type)" } == ["Handler", "Handler"])
    // The failed creation left nothing behind: the scope makes the instance again next time.
    #expect(!scope.hasInstance(of: Handler.self))
  }

  @Test("Many threads asking one scope at once get one instance, made once")
  func exactlyOncePerScope() async throws {
    let made = TestAtomic<Int>(0)
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(UnitOfWork.self, lifetime: .scoped) { _ in
        _ = made.add(1, ordering: .relaxed)
        return UnitOfWork(pool: Pool())
      }
    }.build()
    await Stress.run(
      threads: 8, rounds: min(Stress.rounds, 2_000),
      prepare: { _ in container.makeScope() },
      work: { scope, _ in ObjectIdentifier(try scope.resolve(UnitOfWork.self)) },
      check: { round, _, results in
        Set(results).count == 1 ? nil : "round \(round): \(Set(results).count) instances"
      })
    #expect(made.load(ordering: .relaxed) == min(Stress.rounds, 2_000))
  }

  @Test("Scopes made, used and closed from 1,000 tasks at once stay separate")
  func thousandConcurrentScopes() async throws {
    let made = TestAtomic<Int>(0)
    let disposed = TestAtomic<Int>(0)
    let container = try serverContainer { registrar in
      registrar.bind(
        Payments.self, tag: "tracked", lifetime: .scoped,
        dispose: { _ in _ = disposed.add(1, ordering: .relaxed) }
      ) { resolver in
        _ = made.add(1, ordering: .relaxed)
        return Payments(work: try resolver.resolve())
      }
    }
    let shared = try await withThrowingTaskGroup(of: Bool.self) { group in
      for id in 0..<1_000 {
        group.addTask {
          let scope = try container.makeScope { $0.provide(Request(id: id)) }
          let checkout = try scope.resolve(Checkout.self)
          let tracked = try scope.resolve(Payments.self, tag: "tracked")
          let again = try scope.resolve(Payments.self, tag: "tracked")
          try await scope.close()
          return checkout.request.id == id && tracked === again
            && tracked.work === checkout.orders.work
        }
      }
      var all = true
      for try await ok in group { all = all && ok }
      return all
    }
    #expect(shared)
    #expect(made.load(ordering: .relaxed) == 1_000)
    #expect(disposed.load(ordering: .relaxed) == 1_000)
  }

  @Test("A scope released without close() disposes its instances and is reported")
  func unclosedScopeIsReported() async throws {
    let reports = Locked<[String]>([])
    let disposed = TestAtomic<Int>(0)
    var builder = ContainerBuilder().adding { registrar in
      registrar.bind(Pool.self, lifetime: .persistent, to: Pool.init)
      registrar.bind(
        UnitOfWork.self, lifetime: .scoped,
        dispose: { _ in disposed.add(1, ordering: .releasing) }, to: UnitOfWork.init(pool:))
    }
    builder.onUnclosedScope = { message in reports.withLock { $0.append(message) } }
    let container = try builder.build()
    do {
      let scope = container.makeScope()
      _ = try scope.resolve(UnitOfWork.self)
    }
    #expect(try await eventually(disposed, reaches: 1) == 1, "disposed as close() would")
    do {
      // A closed scope, and one that made nothing to dispose, are not reported.
      let closed = container.makeScope()
      _ = try closed.resolve(UnitOfWork.self)
      try await closed.close()
      _ = container.makeScope()
    }
    #expect(disposed.load(ordering: .acquiring) == 2)
    let seen = reports.withLock { $0 }
    #expect(seen.count == 1)
    #expect(seen.first?.contains("UnitOfWork") == true)
    #expect(seen.first?.contains("disposed now") == true)
    #expect(seen.first?.contains("close()") == true)
  }

  @Test("shutdown() waits for the disposal a scope released without close() started")
  func shutdownWaitsForUnclosedScopesDisposal() async throws {
    for _ in 0..<20 {
      let disposed = TestAtomic<Int>(0)
      var builder = ContainerBuilder().adding { registrar in
        registrar.bind(
          UnitOfWork.self, lifetime: .scoped,
          dispose: { _ in
            try await Task.sleep(milliseconds: 5)
            disposed.add(1, ordering: .releasing)
          }, to: { UnitOfWork(pool: Pool()) })
      }
      builder.onUnclosedScope = { _ in }
      let container = try builder.build()
      for _ in 0..<3 {
        let scope = container.makeScope()
        _ = try scope.resolve(UnitOfWork.self)
      }
      try await container.shutdown()
      #expect(disposed.load(ordering: .acquiring) == 3)
    }
  }

  @Test(
    "Scopes released while the container shuts down: shutdown() returns, every instance disposed once"
  )
  func releaseRacingShutdown() async throws {
    for round in 0..<300 {
      let made = TestAtomic<Int>(0)
      let disposed = Locked<[Int: Int]>([:])
      var builder = ContainerBuilder().adding { registrar in
        registrar.bind(
          UnitOfWork.self, lifetime: .scoped,
          dispose: { work in
            disposed.withLock { $0[ObjectIdentifier(work).hashValue, default: 0] += 1 }
          },
          to: {
            made.add(1, ordering: .relaxed)
            return UnitOfWork(pool: Pool())
          })
      }
      builder.onUnclosedScope = { _ in }
      let container = try builder.build()
      let scopes = Locked<[Scope]>([])
      var kept: [UnitOfWork] = []  // so that no two instances share an address
      for _ in 0..<4 {
        let scope = container.makeScope()
        kept.append(try scope.resolve(UnitOfWork.self))
        scopes.withLock { $0.append(scope) }
      }
      let go = TestAtomic<Bool>(false)
      let released = TestAtomic<Bool>(false)
      let releaser = Thread {
        while !go.load(ordering: .acquiring) {}
        for _ in 0..<round % 50 { _ = 0 }  // vary the moment
        scopes.withLock { $0.removeAll() }
        released.store(true, ordering: .releasing)
      }
      releaser.start()
      go.store(true, ordering: .releasing)
      let shutDown = TestAtomic<Int>(0)
      let finished = Task {
        try await container.shutdown()
        shutDown.store(1, ordering: .releasing)
      }
      let reached = try await eventually(shutDown, reaches: 1)
      try #require(reached == 1, "round \(round): shutdown() did not return: a hang")
      try await finished.value
      while !released.load(ordering: .acquiring) { try await Task.sleep(milliseconds: 1) }
      let counts = disposed.withLock { $0 }
      #expect(counts.count == made.load(ordering: .relaxed), "round \(round): \(counts)")
      #expect(counts.values.allSatisfy { $0 == 1 }, "round \(round): \(counts)")
      _ = kept
    }
  }

  @Test("verify() creates scoped bindings in a scope and skips what needs a scope value")
  func verifyWithScopes() throws {
    let container = try serverContainer()
    let report = try container.verify()
    #expect(report.verified.contains(BindingKey(UnitOfWork.self)))
    #expect(report.verified.contains(BindingKey(Orders.self)))
    #expect(report.skipped.map(\.key).contains(BindingKey(Checkout.self)))
  }

  @Test("A request made in a scope inside a factory resolves in that scope")
  func nestedScopeRequest() throws {
    let container = try serverContainer()
    let scope = try container.makeScope { $0.provide(Request(id: 3)) }
    let inner = try ContainerBuilder().adding { registrar in
      registrar.bind(String.self) { _ in
        "\(try scope.resolve(Checkout.self).request.id)"
      }
    }.build()
    #expect(try inner.resolve(String.self) == "3")
  }
}
