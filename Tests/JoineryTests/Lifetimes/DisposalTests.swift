import Foundation
import Joinery
import Testing

private struct Closing: Error, CustomStringConvertible {
  let name: String
  var description: String { "\(name) refused to close" }
}

private final class Pool: Sendable {}
private final class Repository: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}
private final class Session: Sendable {}
private final class UnitOfWork: Sendable {
  let repository: Repository
  init(repository: Repository) { self.repository = repository }
}

private func container(
  _ journal: Journal, _ extra: @escaping @Sendable (inout Registrar) -> Void = { _ in }
) throws -> Container {
  try ContainerBuilder().adding { registrar in
    registrar.bind(
      Pool.self, lifetime: .persistent, dispose: { _ in journal.note("pool") }, to: Pool.init)
    registrar.bind(
      Repository.self, lifetime: .persistent, dispose: { _ in journal.note("repository") },
      to: Repository.init(pool:))
    registrar.bind(
      Session.self, lifetime: .cached, dispose: { _ in journal.note("session") },
      to: Session.init)
    registrar.bind(
      UnitOfWork.self, lifetime: .scoped, dispose: { _ in journal.note("unit of work") },
      to: UnitOfWork.init(repository:))
    extra(&registrar)
  }.build()
}

@Suite("Disposal and shutdown")
struct DisposalTests {
  @Test("shutdown() disposes in reverse creation order, across persistent and cached, once")
  func reverseCreationOrder() async throws {
    let journal = Journal()
    let container = try container(journal)
    _ = try container.resolve(Session.self)
    _ = try container.resolve(Repository.self)  // makes the pool first
    try await container.shutdown()
    #expect(journal.all == ["repository", "pool", "session"])
    try await container.shutdown()
    #expect(journal.all.count == 3, "shutdown is idempotent")
    #expect(container.isShutDown)
  }

  @Test("Eager singletons are made in key order, whatever the declaration and include order")
  func eagerOrderAcrossInclude() async throws {
    let journal = Journal()
    struct Storage: Assembly {
      let journal: Journal
      func register(in registrar: inout Registrar) {
        registrar.bind(Repository.self, lifetime: .persistent(eager: true)) { _ in
          journal.note("make repository")
          return Repository(pool: Pool())
        }
      }
    }
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Session.self, lifetime: .persistent(eager: true)) { _ in
        journal.note("make session")
        return Session()
      }
      registrar.include(Storage(journal: journal))
      registrar.bind(Pool.self, lifetime: .persistent(eager: true)) { _ in
        journal.note("make pool")
        return Pool()
      }
    }.build()
    #expect(journal.all == ["make pool", "make repository", "make session"])
    try await container.shutdown()
  }

  @Test("Only created instances are disposed; never-resolved bindings cost nothing")
  func onlyCreated() async throws {
    let journal = Journal()
    let container = try container(journal)
    _ = try container.resolve(Pool.self)
    try await container.shutdown()
    #expect(journal.all == ["pool"])
  }

  @Test("A scope disposes its own instances, newest first, before the container's")
  func scopeThenContainer() async throws {
    let journal = Journal()
    let container = try container(journal) { registrar in
      registrar.bind(
        String.self, lifetime: .scoped, dispose: { _ in journal.note("report") }
      ) { resolver in
        _ = try resolver.resolve(UnitOfWork.self)
        return "report"
      }
    }
    let scope = container.makeScope()
    _ = try scope.resolve(String.self)
    try await scope.close()
    #expect(journal.all == ["report", "unit of work"])
    try await scope.close()
    #expect(journal.all.count == 2, "close is idempotent")
    let error = #expect(throws: ResolutionError.self) { try scope.resolve(UnitOfWork.self) }
    #expect(error?.code == .shutDown)
    #expect(error?.description.contains("its scope was closed") == true)
    try await container.shutdown()
    #expect(journal.all == ["report", "unit of work", "repository", "pool"])
  }

  @Test("A disposer that throws: every other one still runs, the failures are reported together")
  func throwingDisposer() async throws {
    let journal = Journal()
    let container = try container(journal) { registrar in
      registrar.bind(
        Int.self, lifetime: .persistent, dispose: { _ in throw Closing(name: "socket") }
      ) { resolver in
        _ = try resolver.resolve(Repository.self)
        return 1
      }
    }
    _ = try container.resolve(Int.self)
    let error = await #expect(throws: DisposalError.self) { try await container.shutdown() }
    #expect(error?.failures.count == 1)
    #expect(error?.failures.first?.key == BindingKey(Int.self))
    #expect(error?.description.contains("socket refused to close") == true)
    #expect(journal.all == ["repository", "pool"])
  }

  @Test("Instances handed over with instance: are disposed only when asked")
  func externalInstances() async throws {
    let journal = Journal()
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Pool.self, instance: Pool())
      registrar.bind(
        Session.self, dispose: { _ in journal.note("session") }, instance: Session())
    }.build()
    _ = try container.resolve(Pool.self)
    _ = try container.resolve(Session.self)
    try await container.shutdown()
    #expect(journal.all == ["session"])
  }

  @Test("Resolving after shutdown throws a clear error, for built and unbuilt instances")
  func resolveAfterShutdown() async throws {
    let journal = Journal()
    let container = try container(journal)
    _ = try container.resolve(Pool.self)
    try await container.shutdown()
    for error in [
      #expect(throws: ResolutionError.self) { try container.resolve(Pool.self) },
      #expect(throws: ResolutionError.self) { try container.resolve(Repository.self) },
      #expect(throws: ResolutionError.self) { try container.makeScope().resolve(Pool.self) },
    ] {
      #expect(error?.code == .shutDown)
      #expect(error?.description.contains("after the container was shut down") == true)
      // Advice for the two frameworks the Server Apps article covers.
      let advice = error?.debugDescription ?? ""
      #expect(advice.contains("list the container's service before the services that use it"))
      #expect(advice.contains("after `app.asyncShutdown()` returns, not in a LifecycleHandler"))
    }
    let asyncError = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsync(Repository.self)
    }
    #expect(asyncError?.code == .shutDown)
  }

  @Test(
    "A resolution begun before shutdown() gets no new kept instance after it, cached or persistent",
    arguments: ["cached", "persistent"])
  func keptCreationAfterShutdown(lifetimeName: String) async throws {
    let lifetime: Lifetime.For<Session> = lifetimeName == "cached" ? .cached : .persistent
    let entered = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    let made = Locked(0)
    // No disposer: nothing else would stop an instance whose disposal never runs.
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Session.self, lifetime: lifetime) { _ in
        made.withLock { $0 += 1 }
        return Session()
      }
      registrar.bind(UnitOfWork.self, dependsOn: [BindingKey(Session.self)]) { resolver in
        entered.signal()
        resume.wait()
        _ = try resolver.resolve(Session.self)
        return UnitOfWork(repository: Repository(pool: Pool()))
      }
    }.build()
    async let outcome = Stress.onThread {
      Result { () throws(ResolutionError) -> UnitOfWork in
        try container.resolve(UnitOfWork.self)
      }
    }
    // The request is inside its factory: shut down, then let it reach the kept binding.
    await Task.detached { entered.wait() }.value
    try await container.shutdown()
    resume.signal()
    guard case .failure(let error)? = await outcome else {
      Issue.record("the request after shutdown was not refused")
      return
    }
    #expect(error.code == .shutDown)
    #expect(error.requested == BindingKey(Session.self))
    #expect(made.withLock { $0 } == 0)
  }

  @Test("An async persistent binding's dispose: runs at shutdown")
  func asyncDisposal() async throws {
    let journal = Journal()
    let container = try await ContainerBuilder().adding { registrar in
      registrar.bindAsync(
        Pool.self, lifetime: .persistent(eager: true),
        dispose: { _ in
          try await Task.sleep(milliseconds: 1)
          journal.note("async pool")
        }
      ) { _ in Pool() }
      registrar.bind(
        Repository.self, lifetime: .scoped, dispose: { _ in journal.note("repository") },
        to: Repository.init(pool:))
    }.buildAsync()
    let scope = container.makeScope()
    _ = try scope.resolve(Repository.self)
    try await scope.close()
    try await container.shutdown()
    #expect(journal.all == ["repository", "async pool"])
  }

  @Test("A synchronous binding may depend on an eager async one only with buildAsync()")
  func eagerAsyncDependency() throws {
    let builder = ContainerBuilder().adding { registrar in
      registrar.bindAsync(Pool.self, lifetime: .persistent(eager: true)) { _ in Pool() }
      registrar.bind(Repository.self, lifetime: .scoped, to: Repository.init(pool:))
    }
    let error = #expect(throws: BuildError.self) { try builder.build() }
    #expect(error?.diagnostics.contains { $0.code == .asyncDependency } == true)
    #expect(error?.debugDescription.contains("buildAsync()") == true)
  }

  @Test("dispose: on a lifetime that keeps no instance fails build()")
  func unsupportedLifetimes() throws {
    for lifetime in [Lifetime.ephemeral, .graph, .transient] {
      let error = #expect(throws: BuildError.self) {
        try ContainerBuilder().adding { registrar in
          registrar.bind(Pool.self, lifetime: .init(lifetime), dispose: { _ in }, to: Pool.init)
        }.build()
      }
      #expect(error?.diagnostics.first?.code == .unsupportedLifetime, "\(lifetime)")
      #expect(error?.debugDescription.contains("could never dispose") == true)
    }
  }

  @Test("close(group) disposes the cached instances the reset dropped, and only those")
  func closeCacheGroup() async throws {
    let journal = Journal()
    let container = try container(journal)
    let before = try container.resolve(Session.self)
    _ = try container.resolve(Pool.self)
    try await container.close(.default)
    #expect(journal.all == ["session"])
    let after = try container.resolve(Session.self)
    #expect(after !== before)
    try await container.shutdown()
    #expect(
      journal.all == ["session", "session", "pool"], "the new session was made after the pool")
  }

  @Test("Shutdown racing resolves: every resolve gets the instance or a shutDown error")
  func shutdownRacingResolves() async throws {
    for _ in 0..<50 {
      let journal = Journal()
      let container = try container(journal)
      let outcomes = await withTaskGroup(of: String.self) { group in
        for _ in 0..<16 {
          group.addTask {
            do throws(ResolutionError) {
              _ = try container.resolve(Repository.self)
              return "ok"
            } catch {
              return error.code == .shutDown ? "shut down" : "\(error.code)"
            }
          }
        }
        group.addTask {
          try? await container.shutdown()
          return "shutdown"
        }
        var all: [String] = []
        for await outcome in group { all.append(outcome) }
        return all
      }
      #expect(Set(outcomes).isSubset(of: ["ok", "shut down", "shutdown"]))
      // Whatever was made before shutdown was disposed once; nothing after it.
      let entries = journal.all
      #expect(entries == [] || entries == ["repository", "pool"] || entries == ["pool"])
    }
  }

  @Test("makeChild takes an array of registers")
  func makeChildArray() throws {
    let journal = Journal()
    let parent = try container(journal)
    let registers: [any DependencyRegister] = [
      Bindings("string") { $0.bind(String.self, instance: "child") },
      Bindings("double") { $0.bind(Double.self, instance: 2) },
    ]
    let child = try parent.makeChild(registers)
    #expect(try child.resolve(String.self) == "child")
    #expect(try child.resolve(Double.self) == 2)
    #expect(try child.resolve(Pool.self) === (try parent.resolve(Pool.self)))
  }
}
