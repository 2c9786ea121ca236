import Hummingbird
import HummingbirdTesting
import Joinery
import Logging
import ServerAppCore
import ServiceLifecycle
import Testing

/// The production graph with the database replaced, as a test assembly does.
private func testContainer() async throws -> Container {
  try await ContainerBuilder(appAssemblies(ServerConfiguration(port: 0)))
    .overriding { registrar in
      registrar.bindAsync(
        Database.self, lifetime: .persistent(eager: true), dispose: { await $0.close() }
      ) { resolver in
        try await Database.connect(
          url: "memory://tests", events: try resolver.resolve(EventLog.self))
      }
    }
    .buildAsync()
}

@Suite("Server sample")
struct ServerAppTests {
  @Test("An order is written in the request's unit of work, committed once")
  func placeAndList() async throws {
    let container = try await testContainer()
    let database = try await container.resolveAsync(Database.self)
    #expect(database.url == "memory://tests")
    let app = try makeApplication(container: container)
    try await app.test(.router) { client in
      try await client.execute(uri: "/orders", method: .post, body: ByteBuffer(string: "tea")) {
        #expect($0.status == .created)
      }
      try await client.execute(uri: "/orders", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains("\"item\":\"tea\""))
      }
    }
    #expect(await database.commits == 1)
    #expect(await database.openTransactions == 0)
    #expect(container.isShutDown, "the app's container service shut it down when the test ended")
  }

  @Test("A factory's own HTTP error is the answer: no user, 401; signed in, 200")
  func factoryErrorReachesTheClient() async throws {
    let container = try await testContainer()
    let app = try makeApplication(container: container)
    try await app.test(.router) { client in
      try await client.execute(uri: "/orders/signed-in", method: .get) { response in
        #expect(response.status == .unauthorized)
      }
      try await client.execute(
        uri: "/orders/signed-in", method: .get, headers: [.init("x-user")!: "ada"]
      ) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "signed in as ada")
      }
    }
  }

  @Test("A request that never touches the database makes no unit of work and commits nothing")
  func healthMakesNoUnitOfWork() async throws {
    let container = try await testContainer()
    let database = try await container.resolveAsync(Database.self)
    let app = try makeApplication(container: container)
    try await app.test(.router) { client in
      try await client.execute(
        uri: "/health", method: .get, headers: [.init("x-request-id")!: "r-42"]
      ) { response in
        #expect(String(buffer: response.body) == "ok (request r-42)")
      }
    }
    // The test framework runs the app's services: the container was shut down after the
    // requests, which closed the pool, and nothing else happened to it.
    #expect(await database.journal == ["open", "close"])
  }

  @Test("A failing request's unit of work is rolled back by its disposer")
  func failureRollsBack() async throws {
    let container = try await testContainer()
    let database = try await container.resolveAsync(Database.self)
    let app = try makeApplication(container: container)
    try await app.test(.router) { client in
      try await client.execute(uri: "/orders/failing", method: .post) {
        #expect($0.status == .conflict)
      }
    }
    #expect(await database.rollbacks == 1)
    #expect(await database.orders.isEmpty)
  }

  /// Runs the app in a service group, sends 8 slow requests, and triggers graceful shutdown
  /// while all 8 are in flight. Returns their statuses.
  private func shutDownWithRequestsInFlight(
    containerServiceFirst: Bool
  ) async throws -> (statuses: [HTTPResponse.Status], journal: [String], events: EventLog) {
    let container = try await testContainer()
    let database = try await container.resolveAsync(Database.self)
    let events = try container.resolve(EventLog.self)
    let (ports, port) = AsyncStream.makeStream(of: Int.self)
    let logger = Logger(label: "test")
    let app = try makeApplication(
      container: container, logger: logger, shutsDownContainer: containerServiceFirst,
      onServerRunning: { port.yield($0) })
    // The trap: the container's service listed after the server stops first.
    let services: [any Service] =
      containerServiceFirst ? [app] : [app, ContainerService(container: container, logger: logger)]
    let group = ServiceGroup(configuration: .init(services: services, logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      var iterator = ports.makeAsyncIterator()
      let bound = try #require(await iterator.next())
      let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { requests in
        for index in 0..<8 {
          requests.addTask {
            try await TestClient.withClient(host: "127.0.0.1", port: bound) { client in
              try await client.execute(
                .init("/orders/slow", method: .post, body: ByteBuffer(string: "item \(index)"))
              ).status
            }
          }
        }
        // Every request has begun its transaction: all 8 are in flight.
        while await database.openTransactions < 8 { try await Task.sleep(for: .milliseconds(5)) }
        await group.triggerGracefulShutdown()
        var statuses: [HTTPResponse.Status] = []
        for try await status in requests { statuses.append(status) }
        return statuses
      }
      try await tasks.waitForAll()
      return (statuses, await database.journal, events)
    }
  }

  @Test("Graceful shutdown: the server drains its requests, then the container closes the pool")
  func gracefulShutdownOrder() async throws {
    let (statuses, journal, events) = try await shutDownWithRequestsInFlight(
      containerServiceFirst: true)
    #expect(statuses == Array(repeating: .created, count: 8))
    #expect(journal.filter { $0 == "commit" }.count == 8)
    #expect(journal.last == "close")
    // The event log, a `run()` service listed before the container's, stops after it: the
    // pool's disposer could still use it.
    #expect(
      await events.events == ["event log running", "database closed", "event log stopped"])
    #expect(await events.lost.isEmpty)
  }

  @Test("The trap: a container service listed after the server closes the pool under the requests")
  func wrongShutdownOrder() async throws {
    let (statuses, journal, _) = try await shutDownWithRequestsInFlight(
      containerServiceFirst: false)
    #expect(statuses.allSatisfy { $0 == .internalServerError })
    #expect(!journal.contains("commit"))
  }
}
