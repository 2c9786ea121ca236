internal import JoineryEngine

/// The rendezvous of one async creation that several requests share: the requests that come
/// while an ``AsyncSlot``'s instance is being made await its outcome here, without a task of
/// their own.
///
/// A creation ends once: with the instance, with the factory's error, or *abandoned* when the
/// request that made it inline was cancelled. Its slot (the binding's, the graph's or the
/// scope's) forgets a failed or abandoned creation before it ends, so a request that sees it abandoned
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
}

/// A region whose requests share one async instance of each binding, in an ``AsyncSlot``.
///
/// A scope (its ``DisposalList``) for scoped bindings, a top-level async resolution (its
/// `_GraphMemory`) for `graph` ones. ``AnyBinding/sharedInstance(in:node:resolver:path:in:)``
/// is the one way both are served.
protocol AsyncRegion: AnyObject {
  /// `binding`'s instance, the creation to wait for, or the claim to make it
  /// (``AsyncSlot/claim()``).
  func claimShared(_ binding: AnyBinding) -> AsyncClaim
  /// Ends the claimed creation of `binding`'s instance (``AsyncSlot/end(_:)``).
  func endShared(_ binding: AnyBinding, _ made: AsyncInstance) -> AsyncCreation?
  /// Where an instance made for the region records its disposal; `nil` when the region keeps
  /// no instance past its end.
  var disposalList: DisposalList? { get }
}

/// One async instance a region shares — a scope's instance of a scoped binding, a resolution's
/// of a `graph` binding: the instance once made, or the creation under way.
///
/// The first request claims the creation and makes the instance in its own task; a request
/// that comes meanwhile sets up the creation's rendezvous (an ``AsyncCreation``, made only
/// then) and awaits it. Ending the creation keeps the instance, or forgets a failed or
/// abandoned one so that the next request tries again, and hands back the rendezvous to end.
struct AsyncSlot {
  var instance = AsyncInstance.none
  var isMaking = false
  var rendezvous: AsyncCreation?

  /// Whether an instance was made or is being made.
  var isInUse: Bool {
    if case .made = instance { return true }
    return isMaking
  }

  /// The instance, the creation to wait for, or the claim to make it.
  mutating func claim() -> AsyncClaim {
    if case .made(let instance) = instance { return .made(instance) }
    guard isMaking else {
      isMaking = true
      return .make
    }
    if let rendezvous { return .await(rendezvous) }
    let made = AsyncCreation()
    rendezvous = made
    return .await(made)
  }

  /// Ends the claimed creation with `made` (`.none` when it failed): what the requests that
  /// came meanwhile wait on, if any did.
  mutating func end(_ made: AsyncInstance) -> AsyncCreation? {
    instance = made
    isMaking = false
    defer { rendezvous = nil }
    return rendezvous
  }
}

/// An async instance, if one was made.
///
/// What an `Any?` said, whose every copy and destroy (also of a `nil`) went through the
/// runtime's generic `Optional` value witnesses, 60 to 150 instructions each. With this enum
/// the async request scope benchmark went from 20,216 to about 19,580 instructions.
enum AsyncInstance {
  case made(Any)
  case none
}

/// What a request for a shared async instance does.
enum AsyncClaim {
  case made(Any)
  case await(AsyncCreation)
  /// Make it: this request claimed the creation (and must end it).
  case make
}

/// The ``AsyncSlot``s of one region, by binding: the first two inline (their bindings'
/// identities apart, so that finding one reads no slot), since most regions use few.
struct AsyncSlots {
  private var ids: (ObjectIdentifier?, ObjectIdentifier?) = (nil, nil)
  private var inline = (AsyncSlot(), AsyncSlot())
  private var more = IdentityList<AsyncSlot>()

  /// Claims `binding`'s slot, made empty on first use (``AsyncSlot/claim()``).
  mutating func claim(_ binding: ObjectIdentifier) -> AsyncClaim {
    withSlot(binding) { $0.claim() }
  }

  /// Ends the creation of `binding`'s instance (``AsyncSlot/end(_:)``).
  mutating func end(_ binding: ObjectIdentifier, _ made: AsyncInstance) -> AsyncCreation? {
    withSlot(binding) { $0.end(made) }
  }

  /// `binding`'s instance, if it was made.
  func instance(of binding: ObjectIdentifier) -> AsyncInstance {
    if ids.0 == binding { return inline.0.instance }
    if ids.1 == binding { return inline.1.instance }
    // The list is used only once both inline slots are.
    guard ids.1 != nil else { return .none }
    return more.position(of: binding).map { more[$0].instance } ?? .none
  }

  private mutating func withSlot<R>(
    _ binding: ObjectIdentifier, _ body: (inout AsyncSlot) -> R
  ) -> R {
    if ids.0 == binding { return body(&inline.0) }
    if ids.1 == binding { return body(&inline.1) }
    if ids.0 == nil {
      ids.0 = binding
      return body(&inline.0)
    }
    if ids.1 == nil {
      ids.1 = binding
      return body(&inline.1)
    }
    let position = more.position(of: binding) ?? more.append(AsyncSlot(), for: binding)
    return body(&more[position])
  }
}
