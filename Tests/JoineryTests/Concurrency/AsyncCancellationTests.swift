import Joinery
import Testing

private final class Connection: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

/// Holds async factories until opened; opens by itself after `seconds`, so that a wait the
/// library failed to end shows as a failed expectation, not a hung test.
private final class Gate: Sendable {
  private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  init(opensAfter seconds: UInt64 = 10) {
    Task { [weak self] in
      try? await Task.sleep(milliseconds: seconds * 1000)
      self?.open()
    }
  }

  var isOpen: Bool { state.withLock { $0.isOpen } }

  func wait() async {
    await withCheckedContinuation { waiter in
      let now = state.withLock { state -> Bool in
        if state.isOpen { return true }
        state.waiters.append(waiter)
        return false
      }
      if now { waiter.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// A container whose `Connection` (of `lifetime`) is made once `gate` opens, counting runs.
private func container(
  _ lifetime: Lifetime.For<Connection>, gate: Gate, started: TestAtomic<Int>
) throws -> Container {
  try ContainerBuilder(
    Bindings { registrar in
      registrar.bindAsync(Connection.self, lifetime: lifetime) { _ in
        let serial = started.add(1, ordering: .relaxed).newValue
        await gate.wait()
        return Connection(serial: serial)
      }
    }
  ).buildOrRecord()
}

/// Whether `result` is the error of a request cancelled while it waited.
private func isCancelledWait(_ result: Result<Connection, any Error>) -> Bool {
  guard case .failure(let error as ResolutionError) = result else { return false }
  return error.code == .factoryFailed && error.underlyingError is CancellationError
    && error.description.contains("was cancelled")
}

@Suite("Cancelling a request that awaits another's creation")
struct AsyncCancellationTests {
  @Test(
    "A waiter cancelled while another request makes the instance stops at once; the creation goes on",
    arguments: ["persistent", "cached", "transient", "scoped"])
  func cancelledWaiterStops(lifetime name: String) async throws {
    let lifetimes: [String: Lifetime.For<Connection>] = [
      "persistent": .persistent, "cached": .cached, "transient": .transient, "scoped": .scoped,
    ]
    let gate = Gate()
    let started = TestAtomic<Int>(0)
    let container = try container(try #require(lifetimes[name]), gate: gate, started: started)
    let scope = container.makeScope()
    let maker = Task { try await scope.resolveAsync(Connection.self) }
    _ = try await eventually(started, reaches: 1)
    let waiter = Task { try await scope.resolveAsync(Connection.self) }
    try await Task.sleep(milliseconds: 10)  // usually waiting by now; cancelled first is fine too
    waiter.cancel()
    let cancelled = await waiter.result
    #expect(!gate.isOpen, "the waiter returned before the creation ended")
    #expect(isCancelledWait(cancelled))

    gate.open()
    let made = try await maker.value
    #expect(try await scope.resolveAsync(Connection.self) === made)
    #expect(started.load(ordering: .relaxed) == 1)
    try await scope.close()
  }

  @Test(
    "The request that started a shared creation is cancelled: the others still get an instance",
    arguments: ["persistent", "cached", "scoped"])
  func cancelledMakerDoesNotFailWaiters(lifetime name: String) async throws {
    let lifetimes: [String: Lifetime.For<Connection>] = [
      "persistent": .persistent, "cached": .cached, "scoped": .scoped,
    ]
    let gate = Gate()
    let started = TestAtomic<Int>(0)
    // A factory that checks cancellation once it may go on, as a network call would.
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Connection.self, lifetime: try! #require(lifetimes[name])) { _ in
          let serial = started.add(1, ordering: .relaxed).newValue
          await gate.wait()
          try Task.checkCancellation()
          return Connection(serial: serial)
        }
      }
    ).buildOrRecord()
    let scope = container.makeScope()
    let maker = Task { try await scope.resolveAsync(Connection.self) }
    _ = try await eventually(started, reaches: 1)
    let waiters = (0..<3).map { _ in Task { try await scope.resolveAsync(Connection.self) } }
    try await Task.sleep(milliseconds: 10)
    maker.cancel()
    gate.open()
    await #expect(throws: (any Error).self) { try await maker.value }
    var made: [Connection] = []
    for waiter in waiters { made.append(try await waiter.value) }
    #expect(Set(made.map(ObjectIdentifier.init)).count == 1)
    try await scope.close()
  }

  @Test("A cancelled task still gets an instance that is already made, without waiting")
  func cancelledAfterTheEnd() async throws {
    let gate = Gate()
    gate.open()
    let started = TestAtomic<Int>(0)
    let container = try container(.persistent, gate: gate, started: started)
    let made = try await container.resolveAsync(Connection.self)
    let late = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await container.resolveAsync(Connection.self)
    }
    #expect(try await late.value === made)
  }

  @Test(
    "The first request of a persistent binding, cancelled, stops; a later request gets the instance"
  )
  func cancelledFirstRequest() async throws {
    let gate = Gate()
    let started = TestAtomic<Int>(0)
    let container = try container(.persistent, gate: gate, started: started)
    let first = Task { try await container.resolveAsync(Connection.self) }
    _ = try await eventually(started, reaches: 1)
    first.cancel()
    #expect(isCancelledWait(await first.result))
    let later = Task { try await container.resolveAsync(Connection.self) }
    gate.open()
    #expect(try await later.value.serial == 1)
    #expect(started.load(ordering: .relaxed) == 1)
  }

  @Test("8 waiters, half cancelled as the creation ends, 200 times: each returns, one creation")
  func cancellationRacesTheEnd() async throws {
    for round in 0..<200 {
      let gate = Gate()
      let started = TestAtomic<Int>(0)
      let container = try container(.persistent, gate: gate, started: started)
      let barrier = TaskBarrier(parties: 9)
      let waiters = (0..<8).map { _ in
        Task {
          await barrier.arriveAndWait()
          return try await container.resolveAsync(Connection.self)
        }
      }
      await barrier.arriveAndWait()
      _ = try await eventually(started, reaches: 1)
      // Cancel half while the gate opens: each cancelled one gets the instance or stops.
      if round.isMultiple(of: 2) { gate.open() }
      for waiter in waiters.prefix(4) { waiter.cancel() }
      gate.open()
      var instances: Set<ObjectIdentifier> = []
      for (index, waiter) in waiters.enumerated() {
        let result = await waiter.result
        switch result {
        case .success(let connection): instances.insert(ObjectIdentifier(connection))
        case .failure:
          #expect(index < 4 && isCancelledWait(result), "round \(round), waiter \(index)")
        }
      }
      #expect(instances.count == 1, "round \(round)")
      #expect(started.load(ordering: .relaxed) == 1, "round \(round)")
    }
  }
}
