internal import JoineryEngine

/// One async creation that several requests share: the request that starts it makes the
/// instance (in its own task, or in a task of the creation's own for instances that outlive
/// requests), and the others await its outcome without a task of their own.
///
/// A creation ends once: with the instance, with the factory's error, or *abandoned* when the
/// request that made it inline was cancelled. Its store (the binding, the graph or the scope)
/// forgets a failed or abandoned creation before it ends, so a request that sees it abandoned
/// starts over and may make the instance itself: a cancelled request never hands its
/// cancellation to the requests waiting for it.
// `state` is reached only holding `lock`.
final class AsyncCreation: @unchecked Sendable {
  enum Outcome: Sendable {
    case made(any Sendable)
    case failed(any Error)
    case abandoned
  }

  private struct State {
    var outcome: Outcome?
    var waiters: [CheckedContinuation<Outcome, Never>] = []
  }

  private let lock = _Lock.make()
  // Reached only holding `lock`, which already makes every access exclusive.
  @safe @exclusivity(unchecked) private var state = State()

  private func withState<R>(_ body: (inout State) -> R) -> R {
    lock.withLock { body(&state) }
  }

  /// Ends the creation and resumes every request awaiting it.
  func end(_ outcome: Outcome) {
    let waiters = withState { state -> [CheckedContinuation<Outcome, Never>] in
      state.outcome = outcome
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume(returning: outcome) }
  }

  /// The outcome if the creation has ended, without waiting.
  var ended: Outcome? { withState { $0.outcome } }

  /// The outcome, once the creation has ended.
  var outcome: Outcome {
    get async {
      if let ended = withState({ $0.outcome }) { return ended }
      return await withCheckedContinuation { waiter in
        let ended = withState { state -> Outcome? in
          if let outcome = state.outcome { return outcome }
          state.waiters.append(waiter)
          return nil
        }
        if let ended { waiter.resume(returning: ended) }
      }
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
