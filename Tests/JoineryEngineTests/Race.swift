import Dispatch
import Foundation

/// Runs work on several threads at once, round after round: the engine's structures are shared
/// between threads, so each contract is checked under contention.
enum Race {
  /// `base` rounds, or `JOINERY_STRESS_ROUNDS / 50` when it is set (CI's sanitizer runs lower
  /// it), never fewer than 20.
  static func rounds(_ base: Int) -> Int {
    let asked = ProcessInfo.processInfo.environment["JOINERY_STRESS_ROUNDS"].flatMap(Int.init)
    return Swift.max(asked.map { $0 / 50 } ?? base, 20)
  }

  /// For each of `rounds` rounds, makes a state with `prepare`, then runs `work` on `threads`
  /// threads at once with it; returns every result of every round.
  static func run<State, Result>(
    threads: Int, rounds: Int, prepare: (Int) -> State,
    work: @escaping @Sendable (State, Int) -> Result
  ) -> [Result] {
    var all: [Result] = []
    for round in 0..<rounds {
      let state = UncheckedBox(prepare(round))
      let results = UncheckedBox([Result?](repeating: nil, count: threads))
      let lock = NSLock()
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        let result = work(state.value, thread)
        lock.lock()
        results.value[thread] = result
        lock.unlock()
      }
      all += results.value.compactMap { $0 }
    }
    return all
  }
}

/// A value handed to the racing threads; the tests' structures are what must be thread-safe.
final class UncheckedBox<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

extension Race {
  /// What `work` returns when run on a new thread (never the caller's), waited for.
  static func onAnotherThread<Result>(_ work: @escaping @Sendable () -> Result) -> Result {
    let result = UncheckedBox<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      result.value = work()
      done.signal()
    }
    thread.start()
    done.wait()
    return result.value!
  }
}
