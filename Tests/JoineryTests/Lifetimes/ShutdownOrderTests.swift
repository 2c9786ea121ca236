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
      let container = try ContainerBuilder(
        InlineRegister { registrar in
          registrar.bind(Pool.self, dispose: { $0.close() }, instance: pool)
        }
      ).build()
      if resolves { #expect(try container.resolve(Pool.self) === pool) }
      try await container.shutdown()
      try await container.shutdown()
      #expect(pool.closes.value == 1, "resolved: \(resolves)")
    }
  }

  @Test("After the parent's shutdown, a child and its scopes refuse every request")
  func childOfShutDownParent() async throws {
    let parent = try ContainerBuilder(
      InlineRegister { registrar in
        registrar.bind(Pool.self, lifetime: .persistent, dispose: { $0.close() }, to: Pool.init)
        registrar.bind(Repository.self, to: Repository.init(pool:))
      }
    ).build()
    let child = try parent.makeChild(
      InlineRegister { registrar in registrar.bind(Report.self, to: Report.init(repository:)) })
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
    let container = try ContainerBuilder(
      InlineRegister { registrar in
        registrar.bind(
          Connection.self, lifetime: .persistent,
          dispose: { connection in
            try await Task.sleep(milliseconds: 50)
            connection.closed.withLock { $0 = true }
          }, to: Connection.init)
      }
    ).build()
    let connection = try container.resolve(Connection.self)
    let first = Task { try await container.shutdown() }
    while !container.isShutDown { await Task.yield() }
    try await container.shutdown()  // started while the first is disposing
    #expect(connection.closed.withLock { $0 })
    try await first.value
  }

  @Test("An instance put in with store(_:for:) is disposed at shutdown; store after it throws")
  func storedInstanceIsDisposed() async throws {
    let container = try ContainerBuilder(
      InlineRegister { registrar in
        registrar.bind(
          Connection.self, lifetime: .cached,
          dispose: { connection in connection.closed.withLock { $0 = true } },
          to: Connection.init)
      }
    ).build()
    let stored = Connection()
    try container.store(stored)
    #expect(try container.resolve(Connection.self) === stored)
    try await container.shutdown()
    #expect(stored.closed.withLock { $0 })
    let error = #expect(throws: ResolutionError.self) { try container.store(Connection()) }
    #expect(error?.code == .shutDown)
  }
}
