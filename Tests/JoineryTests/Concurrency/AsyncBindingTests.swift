import Joinery
import Testing

private final class Database: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

private final class Repository: Sendable {
  let database: Database
  init(database: Database) { self.database = database }
}

@Suite("Async bindings")
struct AsyncBindingTests {
  @Test("16 concurrent awaits of an async persistent binding make one instance; later reads agree")
  func singleFlight() async throws {
    for _ in 0..<50 {
      let runs = TestAtomic<Int>(0)
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(Database.self, lifetime: .persistent) { _ in
            let serial = runs.add(1, ordering: .relaxed).newValue
            try await Task.sleep(milliseconds: 2)
            return Database(serial: serial)
          }
        }
      ).buildOrRecord()
      let serials = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<16 {
          group.addTask {
            // The second request usually reads the published instance, with no task.
            let first = try await container.resolveAsync(Database.self)
            let second = try await container.resolveAsync(Database.self)
            return first === second ? first.serial : -1
          }
        }
        return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
      }
      #expect(serials == [1])
      #expect(runs.load(ordering: .relaxed) == 1)
    }
  }

  @Test("Cancelling one waiter cancels neither the creation nor the other waiters")
  func cancellation() async throws {
    let runs = TestAtomic<Int>(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Database.self, lifetime: .persistent) { _ in
          let serial = runs.add(1, ordering: .relaxed).newValue
          try await Task.sleep(milliseconds: 50)
          return Database(serial: serial)
        }
      }
    ).buildOrRecord()
    let cancelled = Task { try await container.resolveAsync(Database.self) }
    let patient = Task { try await container.resolveAsync(Database.self) }
    try await Task.sleep(milliseconds: 5)
    cancelled.cancel()
    let database = try await patient.value
    #expect(database.serial == 1)
    #expect(try await container.resolveAsync(Database.self) === database)
    #expect(runs.load(ordering: .relaxed) == 1)
  }

  @Test("A failure carries the path, and a later resolve retries")
  func failureAndRetry() async throws {
    let attempts = TestAtomic<Int>(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Database.self, lifetime: .persistent) { _ in
          if attempts.add(1, ordering: .relaxed).newValue == 1 {
            throw TestFailure(message: "offline")
          }
          return Database(serial: 2)
        }
        registrar.bindAsync(Repository.self) { resolver in
          Repository(database: try await resolver.resolveAsync())
        }
      }
    ).buildOrRecord()
    let error = try await #require(throws: ResolutionError.self) {
      try await container.resolveAsync(Repository.self)
    }
    #expect(error.code == .factoryFailed)
    #expect(error.path.map { "\($0.requested.type)" } == ["Repository", "Database"])
    #expect(error.underlyingError as? TestFailure == TestFailure(message: "offline"))
    #expect(try await container.resolveAsync(Repository.self).database.serial == 2)
  }

  @Test(
    "A synchronous resolve of an async binding throws a clear error; sync bindings still resolve")
  func synchronousResolve() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Database.self) { _ in Database(serial: 1) }
        registrar.bind(Int.self, instance: 7)
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Database.self) }
    #expect(error.code == .asyncBinding)
    #expect(try await container.resolveAsync(Int.self) == 7)
  }

  @Test("resolveAsync gives the very instance a synchronous resolve does, forwarded ones too")
  func sharedWithSynchronousResolves() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Database.self, lifetime: .persistent) { _ in Database(serial: 1) }
        registrar.bind((any Sendable).self, forwardingTo: Database.self)
        registrar.bindAsync(Repository.self, lifetime: .persistent) { resolver in
          Repository(database: try await resolver.resolveAsync(Database.self))
        }
      }
    ).buildOrRecord()
    // Before anything is built, then once it is (read in place), in either order.
    let first = try await container.resolveAsync(Database.self)
    #expect(try await container.resolveAsync(Database.self) === first)
    #expect(try container.resolve(Database.self) === first)
    let forwarded = try await container.resolveAsync((any Sendable).self)
    #expect(forwarded as? Database === first)
    #expect(try container.resolve((any Sendable).self) as? Database === first)
    let repository = try await container.resolveAsync(Repository.self)
    #expect(repository.database === first)
    #expect(try await container.resolveAsync(Repository.self) === repository)
  }
}
