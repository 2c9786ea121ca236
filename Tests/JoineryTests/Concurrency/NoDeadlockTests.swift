import Foundation
import Joinery
import Testing

private final class SlowService: Sendable {}
private final class Quick: Sendable {}
private final class Left: Sendable {}
private final class Right: Sendable {}
private final class RootOne: Sendable {}
private final class RootTwo: Sendable {}
private final class Ping: Sendable {}
private final class Pong: Sendable {}
private final class Anchor: Sendable {}

/// Runs `body(0)` and `body(1)` on two threads at once and returns each one's error code (`nil`
/// when it succeeded), in the order they finished; fewer than two when one is still running
/// after 10 s: deadlocked (it is left blocked, as a deadlocked thread cannot be stopped).
private func onTwoThreads(
  _ body: @escaping @Sendable (Int) throws(ResolutionError) -> Void
) async throws -> [ResolutionError.Code?] {
  let codes = Locked<[ResolutionError.Code?]>([])
  let done = TestAtomic<Int>(0)
  for index in 0..<2 {
    Thread {
      let code: ResolutionError.Code?
      do throws(ResolutionError) {
        try body(index)
        code = nil
      } catch {
        code = error.code
      }
      codes.withLock { $0.append(code) }
      done.add(1, ordering: .releasing)
    }.start()
  }
  let deadline = Instant.inSeconds(10)
  while done.load(ordering: .acquiring) < 2 && Instant.now < deadline {
    try await Task.sleep(milliseconds: 1)
  }
  return codes.withLock { $0 }
}

@Suite("No deadlocks, no global convoy", .serialized)
struct NoDeadlockTests {
  @Test("While a persistent factory sleeps 500 ms, an unrelated binding resolves at once")
  func slowFactoryBlocksNobodyElse() async throws {
    let entered = TestAtomic<Bool>(false)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(SlowService.self, lifetime: .persistent) { _ in
          entered.store(true, ordering: .releasing)
          Thread.sleep(forTimeInterval: 0.5)
          return SlowService()
        }
        registrar.bind(Quick.self, lifetime: .persistent) { _ in Quick() }
        registrar.bind(Left.self) { _ in Left() }
      }
    ).buildOrRecord()
    _ = try container.resolve(Quick.self)
    let slow = Thread { _ = try? container.resolve(SlowService.self) }
    slow.start()
    while !entered.load(ordering: .acquiring) { try await Task.sleep(milliseconds: 1) }
    let elapsed = await Stress.onThread { () -> Double in
      let start = Instant.now
      for _ in 0..<100 {
        _ = try? container.resolve(Quick.self)
        _ = try? container.resolve(Left.self)
      }
      return Instant.now.milliseconds(since: start)
    }
    let measured = try #require(elapsed)
    // 200 resolves; blocked behind the sleeping factory they would take ≥ 400 ms.
    #expect(measured < 100, "took \(measured) ms")
  }

  @Test("Two roots reaching shared persistent dependencies in opposite orders both finish")
  func oppositeOrders() async {
    await Stress.run(
      threads: 2, rounds: max(Stress.rounds / 2, 500), timeout: 60,
      prepare: { _ in
        try ContainerBuilder(
          Bindings { registrar in
            registrar.bind(Left.self, lifetime: .persistent) { _ in Left() }
            registrar.bind(Right.self, lifetime: .persistent) { _ in Right() }
            registrar.bind(RootOne.self, lifetime: .persistent) { resolver in
              _ = try resolver.resolve(Left.self)
              _ = try resolver.resolve(Right.self)
              return RootOne()
            }
            registrar.bind(RootTwo.self, lifetime: .persistent) { resolver in
              _ = try resolver.resolve(Right.self)
              _ = try resolver.resolve(Left.self)
              return RootTwo()
            }
          }
        ).build()
      },
      work: { container, thread in
        if thread == 0 {
          _ = try container.resolve(RootOne.self)
        } else {
          _ = try container.resolve(RootTwo.self)
        }
        return ObjectIdentifier(try container.resolve(Left.self))
      },
      check: { round, _, ids in
        Set(ids).count == 1 ? nil : "round \(round): two Left instances"
      })
  }

  @Test("A cycle split across two threads throws instead of deadlocking")
  func crossThreadCycle() async throws {
    // Ping's factory waits until Pong's factory has started on the other thread, and vice
    // versa, then each resolves the other: a wait ring only the wait registry can see.
    let box = ContainerBox()
    let started = TestAtomic<Int>(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Ping.self, lifetime: .persistent) { _ in
          started.add(1, ordering: .acquiringAndReleasing)
          while started.load(ordering: .acquiring) < 2 { sched_yield() }
          _ = try box.unwrapped().resolve(Pong.self)
          return Ping()
        }
        registrar.bind(Pong.self, lifetime: .persistent) { _ in
          started.add(1, ordering: .acquiringAndReleasing)
          while started.load(ordering: .acquiring) < 2 { sched_yield() }
          _ = try box.unwrapped().resolve(Ping.self)
          return Pong()
        }
      }
    ).buildOrRecord()
    box.container = container
    defer { box.container = nil }  // the factories capture the box: break the cycle
    let outcome = try await onTwoThreads { index throws(ResolutionError) in
      if index == 0 {
        _ = try container.resolve(Ping.self)
      } else {
        _ = try container.resolve(Pong.self)
      }
    }
    #expect(outcome.count == 2, "deadlocked")
    #expect(outcome.contains(.cycle))
  }

  @Test("A cycle split across two threads and a parent and child container throws")
  func crossThreadCycleThroughChild() async throws {
    // Ping is the parent's, Pong the child's. Ping's factory resolves Pong through the child
    // (a captured container), Pong's resolves Ping as its dependency. Each factory waits until
    // the other has started, so each thread holds one creation and waits for the other's: the
    // ring runs through both containers' bindings, and one registry must see all of it.
    let box = ContainerBox()
    let started = TestAtomic<Int>(0)
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Ping.self, lifetime: .persistent) { _ in
          started.add(1, ordering: .acquiringAndReleasing)
          while started.load(ordering: .acquiring) < 2 { sched_yield() }
          _ = try box.unwrapped().resolve(Pong.self)
          return Ping()
        }
      }
    ).buildOrRecord()
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bind(Pong.self, lifetime: .persistent) { resolver in
          started.add(1, ordering: .acquiringAndReleasing)
          while started.load(ordering: .acquiring) < 2 { sched_yield() }
          _ = try resolver.resolve(Ping.self)
          return Pong()
        }
      })
    box.container = child
    defer { box.container = nil }  // Ping's factory captures the box: break the cycle
    let outcome = try await onTwoThreads { index throws(ResolutionError) in
      if index == 0 {
        _ = try parent.resolve(Ping.self)
      } else {
        _ = try child.resolve(Pong.self)
      }
    }
    #expect(outcome.count == 2, "deadlocked")
    #expect(outcome.contains(.cycle))
  }

  @Test("A ring through a gate kept for an initCompleted step throws instead of deadlocking")
  func ringThroughKeptGate() async throws {
    // Thread 0 resolves RootOne: Anchor's pending step makes the resolution keep Left's gate
    // (Left is published only when the step has run), then RootOne's factory asks for Right.
    // Thread 1 makes Right, whose factory asks for Left. Left is no longer on thread 0's chain,
    // but its gate is still taken: the registry must count it among thread 0's creations.
    let started = TestAtomic<Int>(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Anchor.self) { _ in Anchor() }
        registrar.initCompleted(Anchor.self) { _, _ in }
        registrar.bind(Left.self, lifetime: .persistent) { _ in Left() }
        registrar.bind(RootOne.self) { resolver in
          _ = try resolver.resolve(Anchor.self)
          _ = try resolver.resolve(Left.self)
          started.add(1, ordering: .acquiringAndReleasing)
          while started.load(ordering: .acquiring) < 2 { sched_yield() }
          _ = try resolver.resolve(Right.self)
          return RootOne()
        }
        registrar.bind(Right.self, lifetime: .persistent) { resolver in
          started.add(1, ordering: .acquiringAndReleasing)
          while started.load(ordering: .acquiring) < 2 { sched_yield() }
          _ = try resolver.resolve(Left.self)
          return Right()
        }
      }
    ).buildOrRecord()
    let outcome = try await onTwoThreads { index throws(ResolutionError) in
      if index == 0 {
        _ = try container.resolve(RootOne.self)
      } else {
        _ = try container.resolve(Right.self)
      }
    }
    #expect(outcome.count == 2, "deadlocked")
    #expect(outcome.contains(.cycle))
  }

  @Test("A factory awaiting a task that awaits its own binding throws cycle; later tasks are free")
  func unstructuredTaskInFactory() async throws {
    let container = Locked<Container?>(nil)
    let later = Locked<[String]>([])
    let built = try ContainerBuilder().adding { registrar in
      registrar.bindAsync(Ping.self, lifetime: .persistent) { _ in
        let container = container.withLock { $0 }!
        // Awaits a task that awaits the binding being made: a ring through a task.
        return try await Task { try await container.resolveAsync(Ping.self) }.value
      }
      registrar.bind(Quick.self, lifetime: .transient) { _ in Quick() }
      registrar.bindAsync(Left.self, lifetime: .scoped) { _ in Left() }
      registrar.bindAsync(Pong.self, lifetime: .persistent) { _ in
        let container = container.withLock { $0 }!
        // Started by the factory, run after it returned: no captive, no cycle.
        Task {
          try await Task.sleep(milliseconds: 20)
          do {
            _ = try container.resolve(Quick.self)
            _ = try await container.makeScope().resolveAsync(Left.self)
            later.withLock { $0.append("resolved") }
          } catch {
            later.withLock { $0.append("\(error)") }
          }
        }
        return Pong()
      }
    }.build()
    container.withLock { $0 = built }
    defer { container.withLock { $0 = nil } }

    let ring = Task { try await built.resolveAsync(Ping.self) }
    let done = TestAtomic<Int>(0)
    Task {
      _ = await ring.result
      done.add(1, ordering: .releasing)
    }
    let deadline = Instant.inSeconds(10)
    while done.load(ordering: .acquiring) == 0 && Instant.now < deadline {
      try await Task.sleep(milliseconds: 1)
    }
    try #require(done.load(ordering: .acquiring) == 1, "deadlocked")
    let error = await #expect(throws: ResolutionError.self) { try await ring.value }
    #expect(error?.code == .cycle)

    _ = try await built.resolveAsync(Pong.self)
    while later.withLock({ $0.isEmpty }) && Instant.now < deadline {
      try await Task.sleep(milliseconds: 1)
    }
    #expect(later.withLock { $0 } == ["resolved"])
  }
}
