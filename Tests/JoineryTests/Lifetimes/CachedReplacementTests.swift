import Foundation
import Joinery
import Testing

private final class Session: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

/// Counts the disposals of each session by serial.
private final class Disposals: Sendable {
  private let counts = Locked<[Int: Int]>([:])
  private let total = TestAtomic<Int>(0)

  func note(_ session: Session) {
    counts.withLock { $0[session.serial, default: 0] += 1 }
    total.add(1, ordering: .releasing)
  }

  /// The serials disposed so far, each as many times as it was.
  var all: [Int: Int] { counts.withLock { $0 } }

  /// Waits until `count` disposals ran (a replaced instance is disposed in a task of its own).
  func awaitCount(_ count: Int) async throws -> [Int: Int] {
    _ = try await eventually(total, reaches: count)
    return all
  }
}

/// Holds the factory making one serial until opened; nothing blocks the test's own task.
private final class Hold: Sendable {
  let serial: Int
  let started = TestAtomic<Int>(0)
  private let isOpen = TestAtomic<Bool>(false)

  init(serial: Int) { self.serial = serial }

  func open() { isOpen.store(true, ordering: .releasing) }

  func waitSync() {
    started.store(1, ordering: .releasing)
    while !isOpen.load(ordering: .acquiring) { usleep(1_000) }
  }

  func waitAsync() async {
    started.store(1, ordering: .releasing)
    while !isOpen.load(ordering: .acquiring) { try? await Task.sleep(milliseconds: 1) }
  }
}

/// A cached session, synchronous or async, each made with the next serial from 1; the factory
/// of `hold`'s serial waits for it to open.
private func container(async: Bool, disposals: Disposals, hold: Hold? = nil) throws -> Container {
  let serials = TestAtomic<Int>(0)
  return try ContainerBuilder().adding { registrar in
    if async {
      registrar.bindAsync(
        Session.self, lifetime: .cached, dispose: { disposals.note($0) }
      ) { _ in
        let serial = serials.add(1, ordering: .relaxed).newValue
        if serial == hold?.serial { await hold?.waitAsync() }
        return Session(serial: serial)
      }
    } else {
      registrar.bind(Session.self, lifetime: .cached, dispose: { disposals.note($0) }) { _ in
        let serial = serials.add(1, ordering: .relaxed).newValue
        if serial == hold?.serial { hold?.waitSync() }
        return Session(serial: serial)
      }
    }
  }.build()
}

private func resolve(_ container: Container, async: Bool) async throws -> Session {
  async ? try await container.resolveAsync(Session.self) : try container.resolve(Session.self)
}

@Suite("A cached instance another replaces is disposed when it is replaced")
struct CachedReplacementTests {
  @Test("store(_:for:) disposes the instance it replaces, once", arguments: [false, true])
  func storeDisposesReplaced(async: Bool) async throws {
    let disposals = Disposals()
    let container = try container(async: async, disposals: disposals)
    let made = try await resolve(container, async: async)
    try container.store(Session(serial: 100), for: Session.self)
    #expect(try await disposals.awaitCount(1) == [made.serial: 1], "the made one, at once")
    try container.store(Session(serial: 200), for: Session.self)
    #expect(try await disposals.awaitCount(2) == [made.serial: 1, 100: 1])
    #expect(try await resolve(container, async: async).serial == 200)
    try await container.close(.default)
    #expect(disposals.all == [made.serial: 1, 100: 1, 200: 1])
    try await container.shutdown()
    #expect(disposals.all == [made.serial: 1, 100: 1, 200: 1], "each once")
  }

  @Test("A store after a reset disposes only the instance it replaces, among many disposals")
  func storeAfterResetAmongOthers() async throws {
    final class Pooled: Sendable {
      let index: Int
      init(_ index: Int) { self.index = index }
    }
    let disposals = Disposals()
    let pooled = Locked<[Int]>([])
    let container = try ContainerBuilder().adding { registrar in
      for index in 0..<40 {
        registrar.bind(
          Pooled.self, tag: index, lifetime: .persistent,
          dispose: { made in pooled.withLock { $0.append(made.index) } }
        ) { _ in Pooled(index) }
      }
      registrar.bind(Session.self, lifetime: .cached, dispose: { disposals.note($0) }) { _ in
        Session(serial: 1)
      }
    }.build()
    // Twenty disposals owed before the session, twenty after it; then a reset and a store.
    for index in 0..<20 { _ = try container.resolve(Pooled.self, tag: index) }
    _ = try container.resolve(Session.self)
    for index in 20..<40 { _ = try container.resolve(Pooled.self, tag: index) }
    try await container.close(.default)
    #expect(disposals.all == [1: 1])
    try container.store(Session(serial: 2), for: Session.self)
    try container.store(Session(serial: 3), for: Session.self)
    #expect(try await disposals.awaitCount(2) == [1: 1, 2: 1], "only the replaced session")
    #expect(pooled.withLock { $0 }.isEmpty, "nothing else was taken")
    try await container.shutdown()
    #expect(disposals.all == [1: 1, 2: 1, 3: 1])
    #expect(pooled.withLock { $0 } == Array((0..<40).reversed()), "newest first, each once")
  }

  @Test("Storing the instance the binding holds again keeps it", arguments: [false, true])
  func storeSameInstanceKeepsIt(async: Bool) async throws {
    let disposals = Disposals()
    let container = try container(async: async, disposals: disposals)
    let session = Session(serial: 7)
    try container.store(session, for: Session.self)
    try container.store(session, for: Session.self)
    #expect(try await resolve(container, async: async) === session)
    try await container.close(.default)
    #expect(disposals.all == [7: 1], "not disposed while held, and once at close")
  }

  @Test(
    "An instance being made during a reset is disposed when the next request replaces it",
    arguments: [false, true])
  func inFlightDuringReset(async: Bool) async throws {
    let disposals = Disposals()
    let hold = Hold(serial: 1)
    let container = try container(async: async, disposals: disposals, hold: hold)
    // A thread of its own for the synchronous request, which blocks until the hold opens.
    let first = Task.detached { () async throws -> Session in
      if async { return try await container.resolveAsync(Session.self) }
      let made = await Stress.onThread { Result { try container.resolve(Session.self) } }
      return try #require(made).get()
    }
    _ = try await eventually(hold.started, reaches: 1)
    try await container.close(.default)  // the user logs out while serial 1 is being made
    hold.open()
    #expect(try await first.value.serial == 1, "its request still gets it")
    #expect(disposals.all.isEmpty, "close() does not wait for a running factory")
    #expect(try await resolve(container, async: async).serial == 2)
    #expect(
      try await disposals.awaitCount(1) == [1: 1],
      "the stale session is disposed when replaced, not at the next logout")
    try await container.close(.default)
    try await container.shutdown()
    #expect(disposals.all == [1: 1, 2: 1])
  }

  @Test("Resolves, resets and stores racing: every instance made is disposed exactly once")
  func racingResetsAndStores() async throws {
    for round in 0..<40 {
      let async = round % 2 == 1
      let disposals = Disposals()
      let container = try container(async: async, disposals: disposals)
      let stored = TestAtomic<Int>(0)
      await withTaskGroup(of: Void.self) { group in
        for worker in 0..<4 {
          group.addTask {
            for step in 0..<200 {
              switch (step + worker) % 7 {
              case 0: container.reset()
              case 3:
                let serial = 1_000_000 + worker * 1_000 + step
                try? container.store(Session(serial: serial), for: Session.self)
                stored.add(1, ordering: .relaxed)
              default: _ = try? await resolve(container, async: async)
              }
            }
          }
        }
      }
      try await container.shutdown()
      let all = disposals.all
      #expect(all.values.allSatisfy { $0 == 1 }, "async: \(async), disposed twice: \(all)")
      let madeByFactory = all.keys.filter { $0 < 1_000_000 }
      #expect(
        all.count - madeByFactory.count == stored.load(ordering: .acquiring),
        "async: \(async): every stored session is disposed")
      #expect(
        madeByFactory.count == madeByFactory.max() ?? 0,
        "async: \(async): every session a factory made is disposed")
    }
  }
}
