import Foundation
import Joinery
import Testing

/// Resolves that re-enter a binding through a wrapper or a captured container: each is a cycle
/// error with its path, never a stack overflow and never a hang. Every case runs on its own
/// thread behind a watchdog, so a regression fails the test instead of hanging the run.
@Suite("Re-entrant resolves through wrappers")
struct ReentrancyTests {
  static func outcome(_ body: @escaping @Sendable () throws -> Void) async -> ResolutionError.Code?
  {
    let code = await Stress.onThread(timeout: 20) { () -> ResolutionError.Code? in
      do {
        try body()
        return nil
      } catch let error as ResolutionError {
        return error.code
      } catch {
        return nil
      }
    }
    return code ?? nil
  }

  @Test(
    "Reading an @Injected of its own type inside an ephemeral factory is a cycle",
    arguments: [Lifetime.ephemeral, .persistent, .graph])
  func injectedOwnType(lifetime: Lifetime) async throws {
    let box = ContainerBox()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Looper.self, lifetime: .init(lifetime)) { _ in
          let wrapper = Injected<Looper>(from: box.container!)
          return Looper(next: try wrapper.get())
        }
      }
    ).build()
    box.container = container
    defer { box.container = nil }
    #expect(await Self.outcome { _ = try container.resolve(Looper.self) } == .cycle)
  }

  @Test("The same @Injected read again inside the factory it is resolving is a cycle, not a hang")
  func sameWrapperReentered() async throws {
    let box = ContainerBox()
    let shared = WrapperBox()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Looper.self) { _ in Looper(next: try shared.wrapper!.get()) }
      }
    ).build()
    box.container = container
    shared.wrapper = Injected<Looper>(from: container)
    defer {
      box.container = nil
      shared.wrapper = nil
    }
    #expect(await Self.outcome { _ = try shared.wrapper!.get() } == .cycle)
  }

  @Test(
    "Provider and Lazy of their own type inside the factory are cycles",
    arguments: [Lifetime.ephemeral, .persistent])
  func providerAndLazy(lifetime: Lifetime) async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Looper.self, lifetime: .init(lifetime)) { resolver in
          let provider = try resolver.resolve(Provider<Looper>.self)
          return Looper(next: try provider.get())
        }
        registrar.bind(LazyLooper.self, lifetime: .init(lifetime)) { resolver in
          let lazy = try resolver.resolve(Lazy<LazyLooper>.self)
          return LazyLooper(next: try lazy.get())
        }
      }
    ).build()
    #expect(await Self.outcome { _ = try container.resolve(Looper.self) } == .cycle)
    #expect(await Self.outcome { _ = try container.resolve(LazyLooper.self) } == .cycle)
  }

  @Test("A Lazy cycle reached from two threads at once fails on both, never deadlocks")
  func lazyAcrossThreads() async throws {
    await Stress.run(
      threads: 2, rounds: max(Stress.rounds / 20, 200), timeout: 60,
      prepare: { _ in
        try ContainerBuilder(
          Bindings { registrar in
            registrar.bind(Holder.self, lifetime: .persistent, to: Holder.init(lazy:))
            registrar.bind(Target.self, lifetime: .persistent) { resolver in
              let holder = try resolver.resolve(Holder.self)
              return Target(next: try holder.lazy.get())
            }
          }
        ).build()
      },
      work: { container, thread -> ResolutionError.Code? in
        do throws(ResolutionError) {
          if thread == 0 {
            _ = try container.resolve(Holder.self).lazy.get()
          } else {
            _ = try container.resolve(Target.self)
          }
          return nil
        } catch {
          return error.code
        }
      },
      check: { round, _, codes in
        codes.allSatisfy { $0 == .cycle } ? nil : "round \(round): \(codes)"
      })
  }
}

private final class Looper: Sendable {
  let next: Looper?
  init(next: Looper?) { self.next = next }
}

private final class LazyLooper: Sendable {
  let next: LazyLooper?
  init(next: LazyLooper?) { self.next = next }
}

private final class Target: Sendable {
  let next: Target?
  init(next: Target?) { self.next = next }
}

private final class Holder: Sendable {
  let lazy: Lazy<Target>
  init(lazy: Lazy<Target>) { self.lazy = lazy }
}

private final class WrapperBox: @unchecked Sendable {
  // Set before any resolve; only this test uses it.
  var wrapper: Injected<Looper>?
}

@Suite("Async cycles across tasks")
struct AsyncCycleTests {
  @Test("Two async persistents awaiting each other from two tasks both fail, never hang")
  func crossTaskCycle() async throws {
    // Other suites may block the cooperative pool's threads for a while (slow factories
    // under ThreadSanitizer): the deadline is generous, and the factories wait by sleeping.
    for _ in 0..<20 {
      let started = TestAtomic<Int>(0)
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(PingAsync.self, lifetime: .persistent) { resolver in
            started.add(1, ordering: .relaxed)
            while started.load(ordering: .relaxed) < 2 {
              try await Task.sleep(milliseconds: 1)
            }
            return PingAsync(other: try await resolver.resolveAsync(PongAsync.self))
          }
          registrar.bindAsync(PongAsync.self, lifetime: .persistent) { resolver in
            started.add(1, ordering: .relaxed)
            while started.load(ordering: .relaxed) < 2 {
              try await Task.sleep(milliseconds: 1)
            }
            return PongAsync(other: try await resolver.resolveAsync(PingAsync.self))
          }
        }
      ).build()
      // Unstructured tasks and a polled deadline: a regression fails the test instead of
      // leaving it waiting for two tasks that never end.
      let codes = Locked<[ResolutionError.Code?]>([])
      Task {
        do throws(ResolutionError) {
          _ = try await container.resolveAsync(PingAsync.self)
          codes.withLock { $0.append(nil) }
        } catch { codes.withLock { $0.append(error.code) } }
      }
      Task {
        do throws(ResolutionError) {
          _ = try await container.resolveAsync(PongAsync.self)
          codes.withLock { $0.append(nil) }
        } catch { codes.withLock { $0.append(error.code) } }
      }
      let deadline = Instant.inSeconds(120)
      while codes.withLock({ $0.count }) < 2 && Instant.now < deadline {
        try await Task.sleep(milliseconds: 1)
      }
      let outcome = codes.withLock { $0 }
      #expect(outcome == [.cycle, .cycle])
    }
  }
}

private final class PingAsync: Sendable {
  let other: PongAsync
  init(other: PongAsync) { self.other = other }
}

private final class PongAsync: Sendable {
  let other: PingAsync
  init(other: PingAsync) { self.other = other }
}
