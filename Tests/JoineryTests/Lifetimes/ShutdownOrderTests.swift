import Foundation
import Joinery
import Testing

private final class Pool: Sendable {
  let closes = Counter()
  func close() { closes.increment() }
}
private final class Counter: @unchecked Sendable {
  private let lock = Locked(0)
  func increment() { lock.withLock { $0 += 1 } }
  var value: Int { lock.withLock { $0 } }
}
private final class Repository: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}
private final class Report: Sendable {
  let repository: Repository
  init(repository: Repository) { self.repository = repository }
}

@Suite("Shutdown: what was handed over, and children of a shut-down parent")
struct ShutdownOrderTests {
  @Test("A pool handed over with instance:dispose: is disposed at shutdown, once, resolved or not")
  func handedOverInstanceIsDisposed() async throws {
    for resolves in [false, true] {
      let pool = Pool()  // opened at start-up, before build()
      let container = try ContainerBuilder().adding { registrar in
        registrar.bind(Pool.self, dispose: { $0.close() }, instance: pool)
      }.build()
      if resolves { #expect(try container.resolve(Pool.self) === pool) }
      try await container.shutdown()
      try await container.shutdown()
      #expect(pool.closes.value == 1, "resolved: \(resolves)")
    }
  }

  @Test("After the parent's shutdown, a child and its scopes refuse every request")
  func childOfShutDownParent() async throws {
    let parent = try ContainerBuilder().adding { registrar in
      registrar.bind(Pool.self, lifetime: .persistent, dispose: { $0.close() }, to: Pool.init)
      registrar.bind(Repository.self, to: Repository.init(pool:))
    }.build()
    let child = try parent.makeChild { registrar in
      registrar.bind(Report.self, to: Report.init(repository:))
    }
    let scope = child.makeScope()
    let pool = try child.resolve(Pool.self)
    try await parent.shutdown()
    #expect(pool.closes.value == 1)
    #expect(child.isShutDown)
    for attempt in [
      { _ = try child.resolve(Pool.self) },
      { _ = try child.resolve(Report.self) },
      { _ = try scope.resolve(Repository.self) },
    ] as [() throws -> Void] {
      let error = #expect(throws: ResolutionError.self) { try attempt() }
      #expect(error?.code == .shutDown)
    }
    try await child.shutdown()
    try await scope.close()
  }
}

private final class Connection: Sendable {
  let closed = Locked(false)
}

@Suite("Disposal is complete when close() and shutdown() return")
struct DisposalCompletionTests {
  @Test("A second concurrent shutdown() returns only after the first has disposed everything")
  func concurrentShutdownWaits() async throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(
        Connection.self, lifetime: .persistent,
        dispose: { connection in
          try await Task.sleep(milliseconds: 50)
          connection.closed.withLock { $0 = true }
        }, to: Connection.init)
    }.build()
    let connection = try container.resolve(Connection.self)
    let first = Task { try await container.shutdown() }
    while !container.isShutDown { await Task.yield() }
    try await container.shutdown()  // started while the first is disposing
    #expect(connection.closed.withLock { $0 })
    try await first.value
  }

  @Test("An instance put in with store(_:for:) is disposed at shutdown; store after it throws")
  func storedInstanceIsDisposed() async throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(
        Connection.self, lifetime: .cached,
        dispose: { connection in connection.closed.withLock { $0 = true } },
        to: Connection.init)
    }.build()
    let stored = Connection()
    try container.store(stored)
    #expect(try container.resolve(Connection.self) === stored)
    try await container.shutdown()
    #expect(stored.closed.withLock { $0 })
    let error = #expect(throws: ResolutionError.self) { try container.store(Connection()) }
    #expect(error?.code == .shutDown)
  }
}

/// A request-scoped connection leased from the container's pool.
private final class Lease: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}

private struct Refused: Error {}

/// The container's pool, whose disposal is noted in `journal`.
private func bindJournaledPool(_ registrar: inout Registrar, _ journal: Locked<[String]>) {
  registrar.bind(
    Pool.self, lifetime: .persistent,
    dispose: { _ in journal.withLock { $0.append("pool") } }, to: Pool.init)
}

@Suite("Shutdown order: open scopes first, creations under way in order")
struct ShutdownSequenceTests {
  @Test("shutdown() closes the open scopes first: a request's lease is disposed before its pool")
  func scopesCloseFirst() async throws {
    let journal = Locked<[String]>([])
    let container = try ContainerBuilder().adding { registrar in
      bindJournaledPool(&registrar, journal)
      registrar.bind(
        Lease.self, lifetime: .scoped,
        dispose: { _ in journal.withLock { $0.append("lease") } }, to: Lease.init(pool:))
    }.build()
    let requests = (0..<3).map { _ in container.makeScope() }
    for scope in requests { _ = try scope.resolve(Lease.self) }
    try await requests[1].close()  // one request ended normally
    // A later request takes the place the ended one left in the container's list of scopes.
    let later = container.makeScope()
    _ = try later.resolve(Lease.self)
    try await container.shutdown()
    #expect(journal.withLock { $0 } == ["lease", "lease", "lease", "lease", "pool"])
    // The still-open scopes were closed: they refuse requests, and closing again does nothing.
    for scope in [requests[0], requests[2], later] {
      let error = #expect(throws: ResolutionError.self) { try scope.resolve(Lease.self) }
      #expect(error?.code == .shutDown)
    }
    for scope in requests + [later] { try await scope.close() }
    #expect(journal.withLock { $0.count } == 5)
  }

  @Test(
    "A synchronous creation under way at shutdown is disposed before its pool, its disposer's error thrown"
  )
  func lateSynchronousCreation() async throws {
    let journal = Locked<[String]>([])
    let started = TestAtomic<Int>(0)
    let proceed = DispatchSemaphore(value: 0)
    let container = try ContainerBuilder().adding { registrar in
      bindJournaledPool(&registrar, journal)
      registrar.bind(
        Repository.self, lifetime: .persistent,
        dispose: { _ in
          journal.withLock { $0.append("repository") }
          throw Refused()
        }
      ) { resolver in
        let pool = try resolver.resolve(Pool.self)
        started.store(1, ordering: .releasing)
        proceed.wait()
        return Repository(pool: pool)
      }
    }.build()
    let outcome = Locked<ResolutionError.Code?>(nil)
    let finished = DispatchSemaphore(value: 0)
    Thread {
      do {
        _ = try container.resolve(Repository.self)
      } catch {
        outcome.withLock { $0 = (error as? ResolutionError)?.code }
      }
      finished.signal()
    }.start()
    while started.load(ordering: .acquiring) == 0 { try await Task.sleep(milliseconds: 1) }
    let shutdown = Task { try await container.shutdown() }
    // Shutdown has begun (the container refuses new requests) before the creation may end;
    // a fixed sleep raced with a slow start of the shutdown task on a loaded machine.
    while !container.isShutDown { try await Task.sleep(milliseconds: 1) }
    try await Task.sleep(milliseconds: 30)
    #expect(journal.withLock { $0 }.isEmpty, "shutdown waits for the creation under way")
    proceed.signal()
    let error = await #expect(throws: DisposalError.self) { try await shutdown.value }
    #expect(error?.failures.map(\.key) == [BindingKey(Repository.self)])
    #expect(journal.withLock { $0 } == ["repository", "pool"])
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        finished.wait()
        continuation.resume()
      }
    }
    #expect(outcome.withLock { $0 } == .shutDown, "the disposed instance is not handed out")
  }

  @Test("An async creation under way at shutdown is disposed before its pool")
  func lateAsyncCreation() async throws {
    let journal = Locked<[String]>([])
    let started = TestAtomic<Int>(0)
    let proceed = TestAtomic<Int>(0)
    let container = try ContainerBuilder().adding { registrar in
      bindJournaledPool(&registrar, journal)
      registrar.bindAsync(
        Repository.self, lifetime: .persistent, dependsOn: [],
        dispose: { _ in journal.withLock { $0.append("repository") } }
      ) { resolver in
        let pool = try resolver.resolve(Pool.self)
        started.store(1, ordering: .releasing)
        while proceed.load(ordering: .acquiring) == 0 { try await Task.sleep(milliseconds: 1) }
        return Repository(pool: pool)
      }
    }.build()
    let request = Task { try await container.resolveAsync(Repository.self) }
    while started.load(ordering: .acquiring) == 0 { try await Task.sleep(milliseconds: 1) }
    let shutdown = Task { try await container.shutdown() }
    // Shutdown has begun (the container refuses new requests) before the creation may end;
    // a fixed sleep raced with a slow start of the shutdown task on a loaded machine.
    while !container.isShutDown { try await Task.sleep(milliseconds: 1) }
    try await Task.sleep(milliseconds: 30)
    #expect(journal.withLock { $0 }.isEmpty, "shutdown waits for the creation under way")
    proceed.store(1, ordering: .releasing)
    try await shutdown.value
    #expect(journal.withLock { $0 } == ["repository", "pool"])
    let error = await #expect(throws: ResolutionError.self) { try await request.value }
    #expect(error?.code == .shutDown)
  }
}
