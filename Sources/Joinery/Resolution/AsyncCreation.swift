internal import JoineryEngine

/// One async creation that several requests share: the request that starts it makes the
/// instance (in its own task, or in a task of the creation's own for instances that outlive
/// requests), and the others await its outcome without a task of their own.
///
/// A creation ends once: with the instance, with the factory's error, or *abandoned* when the
/// request that made it inline was cancelled. Its store (the binding, the graph or the scope)
/// forgets a failed or abandoned creation before it ends, so a request that sees it abandoned
/// starts over and may make the instance itself: a cancelled request never hands its
/// cancellation to the requests waiting for it. A request cancelled while it waits stops
/// waiting at once; the creation goes on for the others.
// `state` is reached only holding `lock`.
final class AsyncCreation: @unchecked Sendable {
  enum Outcome: Sendable {
    case made(any Sendable)
    case failed(any Error)
    case abandoned
  }

  private struct State {
    var outcome: Outcome?
    /// The requests waiting, by the number each was given; `nil` resumes a cancelled one.
    var waiters: [Int: CheckedContinuation<Outcome?, Never>] = [:]
    var nextWaiter = 0
  }

  private let lock = _Lock.make()
  // Reached only holding `lock`, which already makes every access exclusive.
  @safe @exclusivity(unchecked) private var state = State()

  private func withState<R>(_ body: (inout State) -> R) -> R {
    lock.withLock { body(&state) }
  }

  /// Ends the creation and resumes every request awaiting it.
  func end(_ outcome: Outcome) {
    let waiters = withState {
      state -> Dictionary<Int, CheckedContinuation<Outcome?, Never>>.Values in
      state.outcome = outcome
      defer { state.waiters = [:] }
      return state.waiters.values
    }
    for waiter in waiters { waiter.resume(returning: outcome) }
  }

  /// The outcome if the creation has ended, without waiting.
  var ended: Outcome? { withState { $0.outcome } }

  /// The outcome, once the creation has ended; `nil` as soon as the waiting task is cancelled
  /// (the creation goes on).
  func outcome() async -> Outcome? {
    if let ended = withState({ $0.outcome }) { return ended }
    let number = withState { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: CheckedContinuation<Outcome?, Never>) in
        // Under the lock, so that a cancellation either finds the waiter or is seen here.
        let resumeNow = withState { state -> Outcome?? in
          if let outcome = state.outcome { return .some(outcome) }
          if Task.isCancelled { return .some(nil) }
          state.waiters[number] = waiter
          return .none
        }
        if let resumeNow { waiter.resume(returning: resumeNow) }
      }
    } onCancel: {
      withState { $0.waiters.removeValue(forKey: number) }?.resume(returning: nil)
    }
  }

  /// Runs `make` as this creation, in the calling task, ends the creation with its result and
  /// returns it to the caller (who gets the factory's error even when the waiters are told the
  /// creation was abandoned).
  ///
  /// `forget` removes the creation from its store; it runs before a failed or abandoned
  /// creation ends, so that nobody who sees the end finds it still stored.
  @inline(__always)
  func run(
    _ make: () async throws -> any Sendable, forget: () -> Void
  ) async -> Result<any Sendable, any Error> {
    do {
      let instance = try await make()
      end(.made(instance))
      return .success(instance)
    } catch {
      forget()
      end(Task.isCancelled ? .abandoned : .failed(error))
      return .failure(error)
    }
  }
}
