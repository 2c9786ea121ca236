import Joinery
import Testing

@Suite("verify()")
struct VerifyTests {
  @Test("verify creates every binding in a throwaway copy, never touching the real instances")
  func throwawayCopy() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(tracker) }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
      }
    ).buildOrRecord()
    let real = try container.resolve(ServiceC.self)
    let report = try container.verify()
    #expect(report.verified == [BindingKey(ServiceB.self), BindingKey(ServiceC.self)])
    #expect(try container.resolve(ServiceC.self) === real)
    #expect(tracker.madeCount == 2)
    #expect(tracker.aliveCount == 1, "the copy's instances are gone with it")
  }

  @Test("verify reports every failure at once and lists bindings that need arguments")
  func allFailures() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self) { _ in throw TestFailure(message: "no disk") }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
        registrar.bind(ServiceA.self) { resolver in
          ServiceA(b: try resolver.resolve(), c: try resolver.resolve(ServiceC.self, tag: "x"))
        }
        registrar.bind(String.self) { (_, name: String) in name }
        registrar.bind(Int.self, instance: 1)
      }
    ).buildOrRecord()
    let error = try #require(throws: VerificationError.self) { try container.verify() }
    #expect(
      error.failures.map { $0.path.first.map { "\($0.requested.type)" } } == [
        "ServiceA", "ServiceB", "ServiceC",
      ])
    #expect(error.failures.allSatisfy { $0.code == .factoryFailed })
    #expect(error.report.verified == [BindingKey(Int.self)])
    #expect(error.report.skipped.map { "\($0.key.type)" } == ["String"])
  }

  @Test("verify observes the edges unchecked factories take")
  func observedEdges() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
      }
    ).buildOrRecord()
    #expect(container.graph.edges.isEmpty)
    let report = try container.verify()
    #expect(
      report.graph.edges.map { "\($0.from) → \($0.to) observed: \($0.isObserved)" } == [
        "ServiceB → ServiceC observed: true"
      ])
  }

  @Test("verifyAsync observes the edges async factories take: sync, async, main-actor, arguments")
  func observedAsyncEdges() async throws {
    let container = try ContainerBuilder()
      .adding { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bindAsync(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
        registrar.bindAsync(String.self) { (resolver, name: String) in
          _ = try await resolver.resolveAsync(ServiceB.self)
          return name
        }
        registrar.bindMainActor(Int.self) { _ in 1 }
        registrar.bindAsync(ServiceA.self) { resolver in
          _ = try await resolver.resolveAsync(String.self, arguments: "a")
          _ = try await resolver.resolveAsync(Int.self)
          return ServiceA(b: try await resolver.resolveAsync(), c: try resolver.resolve())
        }
      }
      .build()
    var samples = SampleArguments()
    samples.add(String.self, arguments: "sample")
    let report = try await container.verifyAsync(arguments: samples)
    #expect(
      Set(report.graph.edges.filter(\.isObserved).map { "\($0.from.type) → \($0.to.type)" })
        == [
          "ServiceA → Int", "ServiceA → ServiceB", "ServiceA → ServiceC", "ServiceA → String",
          "ServiceB → ServiceC", "String → ServiceB",
        ])
    #expect(report.graph.edges.allSatisfy { $0.isObserved })
  }

  /// A pool, a session and a request's unit of work, each disposable, numbered as they are made.
  private static func disposables(_ journal: Journal, handedOver: Pool) -> Bindings {
    let made = Locked(0)
    let next = { @Sendable in
      made.withLock { count -> Int in
        count += 1
        return count
      }
    }
    return Bindings { registrar in
      registrar.bind(
        Pool.self, tag: "made", lifetime: .persistent,
        dispose: { journal.note("pool \($0.serial)") }
      ) { _ in Pool(serial: next()) }
      registrar.bind(
        Pool.self, tag: "handed over", dispose: { journal.note("handed over \($0.serial)") },
        instance: handedOver)
      registrar.bind(
        Session.self, lifetime: .cached, dispose: { journal.note("session \($0.serial)") }
      ) { _ in Session(serial: next()) }
      registrar.bind(
        UnitOfWork.self, lifetime: .scoped, dispose: { journal.note("work \($0.pool.serial)") }
      ) { resolver in UnitOfWork(pool: try resolver.resolve(tag: "made")) }
    }
  }

  @Test("verify disposes what its copy made, scoped first; shutdown() waits for it")
  func verifyDisposes() async throws {
    let journal = Journal()
    let container = try ContainerBuilder(
      Self.disposables(journal, handedOver: Pool(serial: 0))
    ).buildOrRecord()
    _ = try container.verify()
    try await container.shutdown()
    // The copy's instances, newest first, then the real container's handed-over pool (the
    // copy shares that object, so it is the container's to dispose, once).
    #expect(Set(journal.all) == ["work 1", "pool 1", "session 2", "handed over 0"])
    #expect(journal.all.firstIndex(of: "work 1")! < journal.all.firstIndex(of: "pool 1")!)
    #expect(journal.all.filter { $0.hasPrefix("handed") } == ["handed over 0"])
    #expect(journal.all.last == "handed over 0")
  }

  @Test("verifyAsync has disposed what its copy made when it returns, never a handed-over one")
  func verifyAsyncDisposes() async throws {
    let journal = Journal()
    let container = try ContainerBuilder(
      Self.disposables(journal, handedOver: Pool(serial: 0))
    ).adding { registrar in
      registrar.bindAsync(
        ServiceC.self, lifetime: .persistent, dispose: { _ in journal.note("async") }
      ) { _ in ServiceC(LifetimeTracker()) }
    }.buildOrRecord()
    _ = try await container.verifyAsync()
    #expect(Set(journal.all) == ["work 1", "pool 1", "session 2", "async"])
    #expect(journal.all.firstIndex(of: "work 1")! < journal.all.firstIndex(of: "pool 1")!)
    let real = try container.resolve(Pool.self, tag: "made")
    #expect(real.serial == 3, "the real container makes its own pool after the copy's two")
    try await container.shutdown()
    #expect(journal.all.suffix(2) == ["pool 3", "handed over 0"])
  }

  @Test("verify on a child disposes the copies of the child and of its parent")
  func verifyChildDisposes() async throws {
    let journal = Journal()
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(
          Pool.self, lifetime: .persistent, dispose: { journal.note("parent pool \($0.serial)") }
        ) { _ in Pool(serial: 7) }
      }
    ).buildOrRecord()
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bind(
          UnitOfWork.self, lifetime: .persistent,
          dispose: { journal.note("child work \($0.pool.serial)") }
        ) { resolver in UnitOfWork(pool: try resolver.resolve()) }
      })
    _ = try await child.verifyAsync()
    #expect(journal.all == ["child work 7", "parent pool 7"])
    #expect(!parent.hasInstance(of: Pool.self))
  }
}

private final class Pool: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

private final class Session: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

private final class UnitOfWork: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}
