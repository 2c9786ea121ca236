import Joinery
import Testing

// A request scope whose connection is leased asynchronously from a persistent pool.
private struct Request: Sendable { let id: Int }
private final class Pool: Sendable {
  let leases = TestAtomic<Int>(0)
  let failuresLeft: TestAtomic<Int>
  init(failures: Int = 0) { failuresLeft = TestAtomic(failures) }

  func lease(for request: Request) async throws -> Connection {
    try await Task.sleep(nanoseconds: 1_000_000)  // other awaits of the scope pile up here
    if failuresLeft.load(ordering: .sequentiallyConsistent) > 0 {
      failuresLeft.subtract(1, ordering: .sequentiallyConsistent)
      throw PoolExhausted()
    }
    let serial = leases.add(1, ordering: .sequentiallyConsistent).newValue
    return Connection(serial: serial, request: request)
  }
}

private struct PoolExhausted: Error {}

private final class Connection: Sendable {
  let serial: Int
  let request: Request
  init(serial: Int, request: Request) {
    self.serial = serial
    self.request = request
  }
}

/// Ephemeral, synchronous-free consumer: awaits the scope's connection.
private final class OrderQuery: Sendable {
  let connection: Connection
  init(connection: Connection) { self.connection = connection }
}

private final class Released: Sendable {
  private let serials = Locked<[Int]>([])
  func note(_ serial: Int) { serials.withLock { $0.append(serial) } }
  var all: [Int] { serials.withLock { $0 } }
}

/// Opens once; every waiter, earlier or later, then goes on.
private actor Gate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }
}

private func scopedContainer(
  pool: Pool = Pool(), released: Released = Released()
) throws -> Container {
  try ContainerBuilder().adding { registrar in
    registrar.bindScopeValue(Request.self)
    registrar.bind(Pool.self, instance: pool)
    registrar.bindAsync(
      Connection.self, lifetime: .scoped,
      dependsOn: [BindingKey(Pool.self), BindingKey(Request.self)],
      dispose: { released.note($0.serial) }
    ) { resolver in
      try await resolver.resolve(Pool.self).lease(for: try resolver.resolve(Request.self))
    }
    registrar.bindAsync(OrderQuery.self, to: OrderQuery.init(connection:))
  }.build()
}

@Suite("Scoped async bindings")
struct ScopedAsyncTests {
  @Test("16 concurrent awaits in one scope lease one connection; another scope leases its own")
  func oneInstancePerScope() async throws {
    let pool = Pool()
    let container = try scopedContainer(pool: pool)
    let scope = try container.makeScope { $0.provide(Request(id: 1)) }
    let serials = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<16 {
        group.addTask {
          index.isMultiple(of: 2)
            ? try await scope.resolveAsync(Connection.self).serial
            : try await scope.resolveAsync(OrderQuery.self).connection.serial
        }
      }
      return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
    }
    #expect(serials.count == 1)
    #expect(pool.leases.load(ordering: .sequentiallyConsistent) == 1)
    #expect(try await scope.resolveAsync(Connection.self).request.id == 1)

    let other = try container.makeScope { $0.provide(Request(id: 2)) }
    let second = try await other.resolveAsync(Connection.self)
    #expect(!serials.contains(second.serial))
    #expect(second.request.id == 2)
    try await scope.close()
    try await other.close()
  }

  @Test("close() disposes the scope's async instance once; the scope then refuses resolves")
  func closeDisposes() async throws {
    let released = Released()
    let container = try scopedContainer(released: released)
    let scope = try container.makeScope { $0.provide(Request(id: 7)) }
    #expect(!scope.hasInstance(of: Connection.self))
    let connection = try await scope.resolveAsync(Connection.self)
    #expect(scope.hasInstance(of: Connection.self))
    try await scope.close()
    try await scope.close()
    #expect(released.all == [connection.serial])
    let error = await #expect(throws: ResolutionError.self) {
      try await scope.resolveAsync(Connection.self)
    }
    #expect(error?.code == .shutDown)
  }

  @Test("Outside any scope, a scoped async binding is a clear error naming makeScope")
  func outsideAScope() async throws {
    let container = try scopedContainer()
    let error = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsync(OrderQuery.self)
    }
    #expect(error?.code == .scopeRequired)
    #expect(error?.path.map { "\($0.requested.type)" } == ["OrderQuery", "Connection"])
    #expect(error?.debugDescription.contains("makeScope") == true)
  }

  @Test("A scope keeps each of many async scoped instances apart, past its first two")
  func manyAsyncScopedBindings() async throws {
    // A scope keeps two async instances inline and the rest in a list: each of five tags is
    // its own binding, shared within one scope and apart between scopes.
    let tags = ["a", "b", "c", "d", "e"]
    let made = TestAtomic<Int>(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        for (index, tag) in tags.enumerated() {
          registrar.bindAsync(Connection.self, tag: tag, lifetime: .scoped) { _ in
            let serial = made.add(1, ordering: .sequentiallyConsistent).newValue
            return Connection(serial: serial, request: Request(id: index))
          }
        }
      }
    ).buildOrRecord()
    let scope = container.makeScope()
    let other = container.makeScope()
    for tag in tags.reversed() {
      #expect(!scope.hasInstance(of: Connection.self, tag: tag))
    }
    var first: [String: Connection] = [:]
    for tag in tags { first[tag] = try await scope.resolveAsync(Connection.self, tag: tag) }
    for tag in tags.reversed() {
      #expect(scope.hasInstance(of: Connection.self, tag: tag))
      let again = try await scope.resolveAsync(Connection.self, tag: tag)
      #expect(again === first[tag])
      #expect(again.request.id == tags.firstIndex(of: tag))
      let elsewhere = try await other.resolveAsync(Connection.self, tag: tag)
      #expect(elsewhere !== again)
    }
    #expect(made.load(ordering: .sequentiallyConsistent) == 2 * tags.count)
    try await scope.close()
    try await other.close()
  }

  @Test("A failed creation is forgotten: the next await in the scope tries again")
  func failureRetries() async throws {
    let pool = Pool(failures: 1)
    let container = try scopedContainer(pool: pool)
    let scope = try container.makeScope { $0.provide(Request(id: 3)) }
    let error = await #expect(throws: ResolutionError.self) {
      try await scope.resolveAsync(Connection.self)
    }
    #expect(error?.code == .factoryFailed)
    #expect(!scope.hasInstance(of: Connection.self))
    let connection = try await scope.resolveAsync(Connection.self)
    #expect(connection === (try await scope.resolveAsync(Connection.self)))
    try await scope.close()
  }

  @Test("build() refuses a shared binding on a scoped async one, and a synchronous one on it")
  func buildChecks() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(Pool.self, instance: Pool())
        registrar.bindScopeValue(Request.self)
        registrar.bindAsync(
          Connection.self, lifetime: .scoped,
          dependsOn: [BindingKey(Pool.self), BindingKey(Request.self)]
        ) { resolver in
          try await resolver.resolve(Pool.self).lease(for: try resolver.resolve(Request.self))
        }
        registrar.bindAsync(
          OrderQuery.self, lifetime: .persistent, to: OrderQuery.init(connection:))
        registrar.bind(Released.self, lifetime: .scoped, dependsOn: [BindingKey(Connection.self)]) {
          _ in Released()
        }
      }.build()
    }
    let codes = Set(error?.diagnostics.map(\.code) ?? [])
    #expect(codes == [.captiveDependency, .asyncDependency])
  }

  @Test(
    "close() waits for a creation under way, disposes its instance, and its request fails with shutDown"
  )
  func creationOutlivesClose() async throws {
    let (started, proceed, released) = (Gate(), Gate(), Released())
    let container = try ContainerBuilder().adding { registrar in
      registrar.bindAsync(
        Connection.self, lifetime: .scoped, dependsOn: [],
        dispose: { released.note($0.serial) }
      ) { _ in
        await started.open()
        await proceed.wait()
        return Connection(serial: 41, request: Request(id: 0))
      }
    }.build()
    let scope = container.makeScope()
    let request = Task { try await scope.resolveAsync(Connection.self) }
    await started.wait()
    let closing = Task { try await scope.close() }
    try await Task.sleep(milliseconds: 30)
    #expect(released.all.isEmpty, "nothing to dispose until the creation ends")
    await proceed.open()
    try await closing.value
    // Disposed by close(), before it returned: not left to a task of its own.
    #expect(released.all == [41])
    let error = await #expect(throws: ResolutionError.self) { try await request.value }
    #expect(error?.code == .shutDown)
  }
}
