import Foundation
import Testing

/// A reusable barrier that releases all its threads together.
final class SpinBarrier: Sendable {
  let parties: Int
  private let arrived = TestAtomic<Int>(0)
  private let generation = TestAtomic<Int>(0)

  init(parties: Int) { self.parties = parties }

  func wait() {
    let current = generation.load(ordering: .acquiring)
    if arrived.add(1, ordering: .acquiringAndReleasing).newValue == parties {
      arrived.store(0, ordering: .relaxed)
      generation.add(1, ordering: .releasing)
    } else {
      while generation.load(ordering: .acquiring) == current { sched_yield() }
    }
  }
}

enum Stress {
  /// Rounds per stress case; `JOINERY_STRESS_ROUNDS` overrides it.
  static var rounds: Int {
    ProcessInfo.processInfo.environment["JOINERY_STRESS_ROUNDS"].flatMap(Int.init) ?? 10_000
  }

  /// Runs `rounds` rounds on `threads` real threads. Each round, one thread calls `prepare`,
  /// then all threads are released together to call `work`, and `check` sees every result of
  /// the round and returns a failure message, if any. Failures are recorded on the test's own
  /// task at the end. Fails the test, instead of hanging, if it takes longer than `timeout`.
  static func run<State: Sendable, Result: Sendable>(
    threads: Int = 8, rounds: Int = Stress.rounds, timeout: TimeInterval = 120,
    prepare: @escaping @Sendable (Int) throws -> State,
    work: @escaping @Sendable (State, Int) throws -> Result,
    check: @escaping @Sendable (Int, State, [Result]) -> String?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let barrier = SpinBarrier(parties: threads)
    let state = Locked<State?>(nil)
    let results = Locked<[Int: Result]>([:])
    let failures = Locked<[String]>([])
    let finished = TestAtomic<Int>(0)
    for thread in 0..<threads {
      let worker = Thread {
        for round in 0..<rounds {
          if thread == 0 {
            do {
              let prepared = try prepare(round)
              state.withLock { $0 = prepared }
            } catch {
              failures.withLock { $0.append("prepare \(round): \(error)") }
            }
          }
          barrier.wait()
          if let current = state.withLock({ $0 }) {
            do {
              let result = try work(current, thread)
              results.withLock { $0[thread] = result }
            } catch {
              failures.withLock { $0.append("round \(round) thread \(thread): \(error)") }
            }
          }
          barrier.wait()
          if thread == 0 {
            let all = results.withLock { results in
              defer { results.removeAll(keepingCapacity: true) }
              return (0..<threads).compactMap { results[$0] }
            }
            if let current = state.withLock({ $0 }), let failure = check(round, current, all) {
              failures.withLock { $0.append(failure) }
            }
            state.withLock { $0 = nil }
          }
          barrier.wait()
        }
        finished.add(1, ordering: .releasing)
      }
      worker.stackSize = 1 << 20
      worker.start()
    }
    let deadline = Instant.inSeconds(timeout)
    while finished.load(ordering: .acquiring) < threads {
      if Instant.now > deadline {
        Issue.record(
          "Stress run did not finish within \(timeout) s: deadlock?", sourceLocation: sourceLocation
        )
        return
      }
      try? await Task.sleep(milliseconds: 2)
    }
    let all = failures.withLock { $0 }
    for failure in all.prefix(5) {
      Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
    if all.count > 5 {
      Issue.record("…and \(all.count - 5) more failed rounds", sourceLocation: sourceLocation)
    }
  }

  /// Runs `body` on a new thread and waits for it, failing instead of hanging after `timeout`.
  static func onThread<R: Sendable>(
    timeout: TimeInterval = 30, stackSize: Int = 1 << 20,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () -> R
  ) async -> R? {
    let result = Locked<R?>(nil)
    let done = TestAtomic<Bool>(false)
    let thread = Thread {
      let value = body()
      result.withLock { $0 = value }
      done.store(true, ordering: .releasing)
    }
    thread.stackSize = stackSize
    thread.start()
    let deadline = Instant.inSeconds(timeout)
    while !done.load(ordering: .acquiring) {
      if Instant.now > deadline {
        Issue.record(
          "Thread did not finish within \(timeout) s: deadlock?", sourceLocation: sourceLocation)
        return nil
      }
      try? await Task.sleep(milliseconds: 1)
    }
    return result.withLock { $0 }
  }
}

/// A value behind an `NSLock`, which ThreadSanitizer understands (it cannot see inside
/// `Synchronization.Mutex` on Linux).
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// Releases a fixed number of tasks together once all of them have arrived.
actor TaskBarrier {
  private let parties: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(parties: Int) { self.parties = parties }

  func arriveAndWait() async {
    await withCheckedContinuation { continuation in
      waiting.append(continuation)
      if waiting.count == parties {
        let released = waiting
        waiting.removeAll()
        for waiter in released { waiter.resume() }
      }
    }
  }
}
