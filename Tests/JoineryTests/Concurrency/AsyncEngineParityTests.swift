import Foundation
import Joinery
import Testing

// What the synchronous engine guarantees, held to on the async path: a depth limit, cycles
// seen through a captured container, waits across tasks (`async let` included) that never
// deadlock, and creations that need no task of their own.

private final class Link: Sendable {
  let next: Link?
  init(next: Link?) { self.next = next }
}
private final class Loop: Sendable {}
private final class Hub: Sendable {}
private final class Spoke: Sendable {}
private final class Slow: Sendable {}
private final class Unit: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

/// Runs `body` in a task of its own and waits at most `seconds` for it: `nil` when it has not
/// finished by then (it is left running, as a deadlocked task cannot be stopped).
///
/// The wait is long on purpose: a deadlock never ends, while the whole suite under
/// ThreadSanitizer on two cores can starve the cooperative pool for many seconds.
private func finishing<R: Sendable>(
  within seconds: Double, _ body: @escaping @Sendable () async -> R
) async throws -> R? {
  let result = Locked<R?>(nil)
  let done = TestAtomic<Bool>(false)
  Task {
    let value = await body()
    result.withLock { $0 = value }
    done.store(true, ordering: .releasing)
  }
  let deadline = Instant.inSeconds(seconds)
  while !done.load(ordering: .acquiring) && Instant.now < deadline {
    try await Task.sleep(milliseconds: 2)
  }
  return result.withLock { $0 }
}

/// Starts `first`, and `second` once `started` is set; returns the error code each ends with
/// (`nil` for success), `second`'s first.
private func endings(
  of first: @escaping @Sendable () async throws(ResolutionError) -> Void,
  once started: TestAtomic<Bool>,
  then second: @escaping @Sendable () async throws(ResolutionError) -> Void
) async -> [ResolutionError.Code?] {
  @Sendable func code(_ body: () async throws(ResolutionError) -> Void) async
    -> ResolutionError.Code?
  {
    do throws(ResolutionError) {
      try await body()
      return nil
    } catch {
      return error.code
    }
  }
  let one = Task { await code(first) }
  while !started.load(ordering: .acquiring) { try? await Task.sleep(milliseconds: 1) }
  let two = Task { await code(second) }
  return [await two.value, await one.value]
}

/// The error of resolving `Link` tagged 0, which must fail within `patience`.
private func failureOfLinkZero(in container: Container) async throws -> ResolutionError {
  let outcome = try await finishing(within: patience) { () -> ResolutionError? in
    do throws(ResolutionError) {
      _ = try await container.resolveAsync(Link.self, tag: 0)
      return nil
    } catch {
      return error
    }
  }
  let finished = try #require(outcome, "still running after \(patience) s")
  return try #require(finished, "resolved, where it had to fail")
}

@Suite("The async path keeps the synchronous engine's guarantees")
struct AsyncEngineParityTests {
  @Test(
    "An async chain deeper than the limit stops with depthLimitExceeded",
    arguments: [Lifetime.ephemeral, .graph, .persistent])
  func depthLimit(lifetime: Lifetime) async throws {
    var builder = ContainerBuilder(
      Bindings { registrar in
        // An endless chain: Link(tag: n) awaits Link(tag: n + 1).
        for level in 0..<200 {
          registrar.bindAsync(Link.self, tag: level, lifetime: .init(lifetime)) { resolver in
            Link(next: try await resolver.resolveAsync(Link.self, tag: (level + 1) % 200))
          }
        }
      })
    builder.maximumResolutionDepth = 50
    let container = try builder.buildOrRecord()
    let error = try await failureOfLinkZero(in: container)
    // A persistent chain over 200 tags wraps around to tag 0: a cycle at depth 201, but the
    // limit of 50 stops it first.
    #expect(error.code == .depthLimitExceeded)
    #expect(error.path.count == 51)
    #expect(error.debugDescription.contains("more than 50 bindings deep"))
  }

  @Test(
    "A deep async cycle (levels past the full check) throws cycle, naming the whole ring",
    arguments: [Lifetime.ephemeral, .graph, .persistent])
  func deepCycle(lifetime: Lifetime) async throws {
    // Link(tag: n) awaits Link(tag: n + 1), and the last one awaits Link(tag: 20) again: a ring
    // of 30 levels entered at depth 21, deeper than the levels every entry is compared with.
    let container = try ContainerBuilder(
      Bindings { registrar in
        for level in 0..<50 {
          registrar.bindAsync(Link.self, tag: level, lifetime: .init(lifetime)) { resolver in
            Link(
              next: try await resolver.resolveAsync(Link.self, tag: level == 49 ? 20 : level + 1))
          }
        }
      }
    ).buildOrRecord()
    let error = try await failureOfLinkZero(in: container)
    #expect(error.code == .cycle)
    let tags = error.path.map { $0.requested.tag }
    // Found where it closes, or (ephemeral, graph) when it comes round again: always the ring.
    #expect(tags.count >= 51)
    let ring: [BindingTag?] = (20..<50).map { BindingTag($0) }
    #expect(tags.last.map { ring.contains($0) } == true)
    if lifetime == .persistent { #expect(tags.count == 51) }  // the wait on itself is refused
    #expect(Array(tags.prefix(51)) == ((0..<50).map { $0 } + [20]).map { BindingTag($0) })
  }

  @Test("An async factory awaiting its own type through a captured container throws cycle")
  func selfAwaitThroughContainer() async throws {
    for lifetime in [Lifetime.ephemeral, .persistent, .graph] {
      let box = ContainerBox()
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(Loop.self, lifetime: .init(lifetime)) { _ in
            try await box.unwrapped().resolveAsync(Loop.self)
          }
          registrar.bindAsync(Hub.self) { resolver in
            _ = try await resolver.resolveAsync(Loop.self)
            return Hub()
          }
        }
      ).buildOrRecord()
      box.container = container
      defer { box.container = nil }
      let outcome = try await finishing(within: patience) { () -> ResolutionError? in
        do throws(ResolutionError) {
          _ = try await container.resolveAsync(Hub.self)
          return nil
        } catch {
          return error
        }
      }
      let finished = try #require(outcome, "\(lifetime): still running after \(patience) s")
      let error = try #require(finished, "\(lifetime): no error")
      #expect(error.code == .cycle, "\(lifetime)")
      // The captured container's request joins the chain that made it.
      #expect(error.path.map { "\($0.requested.type)" } == ["Hub", "Loop", "Loop"], "\(lifetime)")
    }
  }

  @Test("A task a factory leaves behind resolves as a new request, not inside the finished chain")
  func taskLeftBehind() async throws {
    let box = ContainerBox()
    let later = Locked<Task<Hub, any Error>?>(nil)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Hub.self, lifetime: .persistent) { _ in
          let hub = Hub()
          later.withLock {
            $0 = Task {
              try await Task.sleep(milliseconds: 20)
              return try await box.unwrapped().resolveAsync(Hub.self)
            }
          }
          return hub
        }
      }
    ).buildOrRecord()
    box.container = container
    defer { box.container = nil }
    let hub = try await container.resolveAsync(Hub.self)
    let task = try #require(later.withLock { $0 })
    #expect(try await task.value === hub)
  }

  @Test("Two async singletons awaiting each other from two tasks, one with async let, throw")
  func asyncLetRing() async throws {
    // Spoke's creation (task 2) starts, then Hub's (task 1). Hub awaits Spoke and, a moment
    // later, Slow, each in an `async let`; then Spoke awaits Hub. Both of Hub's waits count:
    // forgetting the first (Hub → Spoke) would let Spoke wait for Hub forever.
    let spokeStarted = TestAtomic<Bool>(false)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Slow.self, lifetime: .persistent) { _ in
          try await Task.sleep(milliseconds: 400)
          return Slow()
        }
        registrar.bindAsync(Hub.self, lifetime: .persistent) { resolver in
          async let spoke = resolver.resolveAsync(Spoke.self)
          async let slow: Slow = {
            try await Task.sleep(milliseconds: 20)
            return try await resolver.resolveAsync(Slow.self)
          }()
          _ = try await (spoke, slow)
          return Hub()
        }
        registrar.bindAsync(Spoke.self, lifetime: .persistent) { resolver in
          spokeStarted.store(true, ordering: .releasing)
          try await Task.sleep(milliseconds: 100)
          _ = try await resolver.resolveAsync(Hub.self)
          return Spoke()
        }
      }
    ).buildOrRecord()
    let outcome = try await finishing(within: patience) {
      await endings(
        of: { () async throws(ResolutionError) in _ = try await container.resolveAsync(Spoke.self)
        },
        once: spokeStarted,
        then: { () async throws(ResolutionError) in _ = try await container.resolveAsync(Hub.self) }
      )
    }
    let codes = try #require(outcome, "deadlocked: still waiting after \(patience) s")
    // The wait that closes the ring (Spoke → Hub) is refused; Hub then fails through Spoke.
    #expect(codes == [.cycle, .cycle])
  }

  @Test("Two async singletons of a parent and a child container awaiting each other throw")
  func parentChildRing() async throws {
    // Spoke (the child's) starts, then Hub (the parent's) awaits Spoke through the child, a
    // captured container; then Spoke awaits Hub. The ring runs through both containers'
    // bindings: one registry of waits must see all of it.
    let spokeStarted = TestAtomic<Bool>(false)
    let box = ContainerBox()
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Hub.self, lifetime: .persistent) { _ in
          _ = try await box.unwrapped().resolveAsync(Spoke.self)
          return Hub()
        }
      }
    ).buildOrRecord()
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bindAsync(Spoke.self, lifetime: .persistent) { resolver in
          spokeStarted.store(true, ordering: .releasing)
          try await Task.sleep(milliseconds: 100)
          _ = try await resolver.resolveAsync(Hub.self)
          return Spoke()
        }
      })
    box.container = child
    defer { box.container = nil }  // Hub's factory captures the box: break the cycle
    let outcome = try await finishing(within: patience) {
      await endings(
        of: { () async throws(ResolutionError) in _ = try await child.resolveAsync(Spoke.self) },
        once: spokeStarted,
        then: { () async throws(ResolutionError) in _ = try await parent.resolveAsync(Hub.self) })
    }
    let codes = try #require(outcome, "deadlocked: still waiting after \(patience) s")
    #expect(codes == [.cycle, .cycle])
  }

  @Test("Cancelling the first request in a scope does not fail the others waiting for its instance")
  func scopedCancellation() async throws {
    let made = TestAtomic<Int>(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Unit.self, lifetime: .scoped) { _ in
          let serial = made.add(1, ordering: .relaxed).newValue
          try await Task.sleep(milliseconds: 50)
          return Unit(serial: serial)
        }
      }
    ).buildOrRecord()
    let scope = container.makeScope()
    let first = Task { try await scope.resolveAsync(Unit.self) }
    while made.load(ordering: .relaxed) == 0 { try await Task.sleep(milliseconds: 1) }
    let second = Task { try await scope.resolveAsync(Unit.self) }
    try await Task.sleep(milliseconds: 5)
    first.cancel()
    let unit = try await second.value
    #expect(try await scope.resolveAsync(Unit.self) === unit)
    if (try? await first.value) == nil {
      // The first request's creation stopped with it; the waiting one made its own.
      #expect(unit.serial == 2)
    } else {
      #expect(unit.serial == 1)
    }
    try await scope.close()
  }

  @Test("Many tasks in one scope share one async instance; cancelled ones never fail the others")
  func scopedRace() async throws {
    for round in 0..<max(Stress.rounds / 20, 50) {
      let made = TestAtomic<Int>(0)
      let disposed = TestAtomic<Int>(0)
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(
            Unit.self, lifetime: .scoped, dispose: { _ in disposed.add(1, ordering: .relaxed) }
          ) { _ in
            // Throws if the task making it is cancelled: the creation is then abandoned.
            try await Task.sleep(nanoseconds: 200_000)
            return Unit(serial: made.add(1, ordering: .relaxed).newValue)
          }
          registrar.bindAsync(Hub.self) { resolver in
            _ = try await resolver.resolveAsync(Unit.self)
            return Hub()
          }
        }
      ).buildOrRecord()
      let scope = container.makeScope()
      let barrier = TaskBarrier(parties: 8)
      let tasks = (0..<8).map { index in
        Task { () -> ObjectIdentifier? in
          await barrier.arriveAndWait()
          if index.isMultiple(of: 2) { _ = try? await scope.resolveAsync(Hub.self) }
          return try? ObjectIdentifier(await scope.resolveAsync(Unit.self))
        }
      }
      for index in stride(from: 0, to: 8, by: 4) { tasks[index].cancel() }
      var results: [Int: ObjectIdentifier?] = [:]
      for (index, task) in tasks.enumerated() { results[index] = await task.value }
      let kept = Set(results.values.compactMap { $0 })
      #expect(kept.count == 1, "round \(round): \(kept.count) instances in one scope")
      for (index, result) in results where !index.isMultiple(of: 4) {
        #expect(result != nil, "round \(round): request \(index) was not cancelled, but failed")
      }
      try await scope.close()
      // Only the creation that succeeded was recorded, and the scope disposed it once.
      #expect(made.load(ordering: .relaxed) == 1, "round \(round)")
      #expect(disposed.load(ordering: .relaxed) == 1, "round \(round)")
    }
  }
}
