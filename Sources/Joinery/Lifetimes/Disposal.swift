public import JoineryEngine

/// How a binding's instances end: made by the registrar, which knows the bound type, from the
/// `dispose:` closure a binding was declared with.
///
/// Given a kept instance, it returns the disposal of that instance, to run later.
@usableFromInline
typealias Disposer = @Sendable (Any) -> @Sendable () async throws -> Void

extension Registrar {
  /// The disposer for a `dispose:` closure, if there is one.
  ///
  /// Inlined, so that a declaration without `dispose:` costs no call.
  @inlinable @inline(__always)
  static func disposer<T>(_ dispose: (@Sendable (T) async throws -> Void)?) -> Disposer? {
    guard let dispose else { return nil }
    return makeDisposer(dispose)
  }

  @usableFromInline
  static func makeDisposer<T>(_ dispose: @escaping @Sendable (T) async throws -> Void) -> Disposer {
    { value in
      // The binding's own instance, so of its type; were it not, its disposal reports it.
      let typed: T
      do { typed = try UnexpectedValueType.cast(value, to: T.self) } catch {
        return { throw error }
      }
      // Only kept instances are disposed, and every lifetime that keeps one requires a
      // `Sendable` type (`Lifetime.For`): the instance may go to the task that disposes it.
      @safe nonisolated(unsafe) let instance = typed
      return { try await dispose(instance) }
    }
  }
}

/// The disposals a container or a scope owes, in creation order: each instance with a disposer
/// is recorded once, after its factory returned (so after everything it depends on), and
/// disposed newest first. Its first word is the closed flag, read atomically on every
/// top-level resolve, so a resolve after shutdown fails without taking a lock.
// `atomicWords` is touched only atomically, `state` only holding `lock`.
@usableFromInline
final class DisposalList: _AtomicWordsHolder, AsyncRegion, @unchecked Sendable {
  @usableFromInline final var atomicWords: UInt = 0
  private let lock = _Lock.make()
  // Reached only holding `lock`, which already makes every access exclusive.
  @safe @exclusivity(unchecked) private var state = State()

  init() { _checkAtomicWordsLayout(&atomicWords) }

  private func withLock<R>(_ body: (inout State) -> R) -> R {
    lock.withLock { body(&state) }
  }

  private struct State {
    var entries: [Entry] = []
    var isClosed = false
    var sequence = 0
    /// A scope's instances (``Scope``): for each scoped binding used, the home of the scope's
    /// instance.
    ///
    /// Kept here so that a scope needs one lock, not two; the
    /// first two inline, since most scopes use few.
    var first: ScopedHome?
    var second: ScopedHome?
    var more = IdentityList<InstanceHome>()
    /// A scope's instances of scoped async bindings, and their creations under way.
    var async = AsyncSlots()
    /// Whether the entries were taken for disposal: an instance recorded later is disposed
    /// at once, on its own.
    var isDisposing = false
    /// Whether the disposal that closing started has finished.
    var isDisposed = false
    /// Callers of a second `closeAndDispose()`, waiting for the first to finish.
    var waiters: [CheckedContinuation<Void, Never>] = []
    /// Creations of instances with a disposer under way (``beginCreation()``).
    var creations = 0
    /// A closer waiting for those creations to end, so that it disposes them in order.
    var drained: CheckedContinuation<Void, Never>?
    /// A container's open scopes: their lists, which its shutdown closes first.
    ///
    /// Each is in the slot it was registered in (``register(scope:)``); a closed scope's slot
    /// is `nil` until a new scope reuses it. Slots, not a dictionary: a scope is registered and
    /// removed once per request, and hashing its identity twice cost more than the rest of both.
    var scopes: [DisposalList?] = []
    /// The slots of `scopes` that closed scopes left free.
    var freeScopeSlots: [Int] = []

    func home(for binding: ObjectIdentifier) -> InstanceHome? {
      if let first, first.binding == binding { return first.home }
      if let second, second.binding == binding { return second.home }
      return more.position(of: binding).map { more[$0] }
    }

    mutating func add(_ entry: ScopedHome) {
      if first == nil {
        first = entry
      } else if second == nil {
        second = entry
      } else {
        more.append(entry.home, for: entry.binding)
      }
    }
  }

  /// Where a scope keeps its instance of one scoped binding: the binding's identity and the
  /// home.
  struct ScopedHome {
    let binding: ObjectIdentifier
    let home: InstanceHome
  }

  /// The home of this scope's instance of `binding`, made empty on first use.
  func home(for binding: AnyBinding) -> InstanceHome {
    let id = ObjectIdentifier(binding)
    return withLock { state in
      if let existing = state.home(for: id) { return existing }
      let made = InstanceHome(layout: binding.layout)
      state.add(ScopedHome(binding: id, home: made))
      return made
    }
  }

  /// The home of this scope's instance of `binding`, if one was made.
  func existingHome(for binding: ObjectIdentifier) -> InstanceHome? {
    withLock { $0.home(for: binding) }
  }

  /// A scope's instances of async scoped bindings (``AsyncRegion``).
  func claimShared(_ binding: AnyBinding) -> AsyncClaim {
    let id = ObjectIdentifier(binding)
    return withLock { $0.async.claim(id) }
  }

  func endShared(_ binding: AnyBinding, _ made: AsyncInstance) -> AsyncCreation? {
    let id = ObjectIdentifier(binding)
    return withLock { $0.async.end(id, made) }
  }

  var disposalList: DisposalList? { self }

  /// The scope's instance of the async `binding`, if it was made.
  func asyncInstance(of binding: AnyBinding) -> AsyncInstance {
    let id = ObjectIdentifier(binding)
    return withLock { $0.async.instance(of: id) }
  }

  /// Adds homes filled before the scope is used (its provided values).
  func addHomes(_ homes: [ScopedHome]) {
    withLock { state in
      for home in homes { state.add(home) }
    }
  }

  struct Entry: Sendable {
    /// The binding that made the instance.
    let owner: ObjectIdentifier
    let key: BindingKey
    let location: BindingLocation
    /// A cached instance's group: what `close(_:)` of that group disposes.
    let group: CacheGroup?
    let sequence: Int
    let run: @Sendable () async throws -> Void
  }

  /// Whether ``close()`` has begun: nothing may be resolved afterwards.
  @inlinable @inline(__always)
  var isClosed: Bool { _loadAcquiring(0) != 0 }

  /// Starts the creation of an instance whose disposal this list will record.
  ///
  /// The list's closer waits for it to end (``endCreation()``), so the instance is disposed in
  /// order with the others. Returns `false`, starting nothing, once the list is closed.
  func beginCreation() -> Bool {
    withLock { state in
      if state.isClosed { return false }
      state.creations += 1
      return true
    }
  }

  /// Ends a creation started with ``beginCreation()``, after its disposal was recorded.
  func endCreation() {
    let closer = withLock { state -> CheckedContinuation<Void, Never>? in
      state.creations -= 1
      guard state.creations == 0 else { return nil }
      defer { state.drained = nil }
      return state.drained
    }
    closer?.resume()
  }

  /// Registers a scope's list with its container's, which shutdown closes first; returns the
  /// slot to remove it from (``unregister(scope:slot:)``), or `nil` once the container closed.
  func register(scope list: DisposalList) -> Int? {
    withLock { state in
      if state.isClosed { return nil }
      if let slot = state.freeScopeSlots.popLast() {
        state.scopes[slot] = list
        return slot
      }
      state.scopes.append(list)
      return state.scopes.count - 1
    }
  }

  /// Removes a scope's list once it closed, from the slot its registration returned; a list
  /// removed already (or let go by shutdown) is left alone.
  func unregister(scope list: DisposalList, slot: Int?) {
    guard let slot else { return }
    withLock { state in
      guard slot < state.scopes.count, state.scopes[slot] === list else { return }
      state.scopes[slot] = nil
      state.freeScopeSlots.append(slot)
    }
  }

  /// Records that `binding` made an instance whose disposal is `run`.
  ///
  /// An instance recorded after the list's entries were taken for disposal (a creation no
  /// closer waited for) is disposed at once instead, in a task of its own, and a failure is
  /// written to standard error: nobody is left to dispose it later.
  func record(_ binding: AnyBinding, _ run: @escaping @Sendable () async throws -> Void) {
    let recorded = withLock { state -> Bool in
      if state.isDisposing { return false }
      state.sequence += 1
      state.entries.append(
        Entry(
          owner: ObjectIdentifier(binding), key: binding.key, location: binding.location,
          group: binding.lifetime.group,
          sequence: state.sequence, run: run))
      return true
    }
    if !recorded {
      // Made after its container or scope closed (a creation under way at the time): disposed
      // at once, and a failure is reported, not dropped.
      let key = binding.key
      let location = binding.location
      Task {
        do {
          try await run()
        } catch {
          let message =
            "Joinery: disposing \(key) (bound at \(location)), made after its container or "
            + "scope closed, threw: \(error)"
          _writeErrorLine(message)
        }
      }
    }
  }

  /// The sequence number of the last entry recorded so far.
  var mark: Int { withLock { $0.sequence } }

  /// Disposes `entries` in a task of its own, newest first.
  ///
  /// Closing this list waits for it, as for a creation under way. A disposer that throws, which
  /// no caller can catch, is written to standard error after `context`. `finish` runs once the
  /// entries are disposed (at once when there are none), before this list stops waiting.
  func disposeDetached(
    _ entries: [Entry], context: String, then finish: (@Sendable () -> Void)? = nil
  ) {
    guard !entries.isEmpty else {
      finish?()
      return
    }
    let counted = beginCreation()
    Task {
      defer { if counted { endCreation() } }
      do {
        try await Self.dispose(entries)
      } catch {
        _writeErrorLine("Joinery: \(context) threw: \(error)")
      }
      finish?()
    }
  }

  /// Whether no disposal is owed.
  var isEmpty: Bool { withLock { $0.entries.isEmpty } }

  /// Marks the list closed and takes every entry, without waiting for creations under way.
  ///
  /// `nil` when it was closed already. For verification's throwaway scopes.
  func close() -> [Entry]? {
    guard markClosed() != nil else { return nil }
    return takeEntries()
  }

  /// Closes the list of a scope released without `close()` and disposes what it held, newest
  /// first, in a task of its own that `container`'s list counts as a creation under way (its
  /// shutdown waits for it), without waiting for creations under way.
  ///
  /// A `closeAndDispose()` of this list racing with it — the container's shutdown closing its
  /// open scopes — returns once that task has disposed them, as it would after another
  /// `closeAndDispose()`. Returns the entries it disposes; `nil` when the list was closed
  /// already.
  func closeReleased(countingIn container: DisposalList, context: String) -> [Entry]? {
    guard markClosed() != nil else { return nil }
    let entries = takeEntries()
    container.disposeDetached(entries, context: context) { self.finishDisposing() }
    return entries
  }

  /// Marks the list closed, so nothing new is resolved, created or registered.
  ///
  /// Returns the open scopes' lists, or `nil` when it was closed already.
  private func markClosed() -> [DisposalList]? {
    withLock { state in
      if state.isClosed { return nil }
      state.isClosed = true
      _storeReleasing(0, 1)
      defer { (state.scopes, state.freeScopeSlots) = ([], []) }
      return state.scopes.compactMap { $0 }
    }
  }

  /// Returns once every creation started before the list closed has ended (and recorded its
  /// disposal).
  private func untilCreationsEnd() async {
    // The common case, nothing under way, without making a continuation.
    if withLock({ $0.creations == 0 }) { return }
    await withCheckedContinuation { (closer: CheckedContinuation<Void, Never>) in
      let done = withLock { state in
        if state.creations == 0 { return true }
        state.drained = closer
        return false
      }
      if done { closer.resume() }
    }
  }

  /// Whether the closed list has nothing to dispose and no creation under way (which would
  /// record one); if so it is marked disposing, as ``takeEntries()`` would.
  private func disposesNothing() -> Bool {
    withLock { state in
      guard state.creations == 0, state.entries.isEmpty else { return false }
      state.isDisposing = true
      return true
    }
  }

  private func takeEntries() -> [Entry] {
    withLock { state in
      state.isDisposing = true
      defer { state.entries = [] }
      return state.entries
    }
  }

  /// Closes the list and disposes what it held, newest first: first every open scope of a
  /// container (each as its `close()` would), then, once the creations under way ended, its
  /// own instances, so an instance made late is disposed in order and its failure reported.
  ///
  /// A call made while another is disposing returns when that one has finished (its failures
  /// are thrown to the first caller only), and a call made after returns at once.
  func closeAndDispose() async throws(DisposalError) {
    guard let scopes = markClosed() else {
      await untilDisposed()
      return
    }
    // The common case — no open scope, nothing to dispose, no creation under way — ends here,
    // without a suspension point (each would hop executors).
    if scopes.isEmpty, disposesNothing() {
      finishDisposing()
      return
    }
    var failures: [DisposalError.Failure] = []
    for scope in scopes {
      do throws(DisposalError) {
        try await scope.closeAndDispose()
      } catch {
        failures += error.failures
      }
    }
    await untilCreationsEnd()
    do throws(DisposalError) {
      try await Self.dispose(takeEntries())
    } catch {
      failures += error.failures
    }
    finishDisposing()
    if !failures.isEmpty { throw DisposalError(failures: failures) }
  }

  private func finishDisposing() {
    let waiters = withLock { state in
      state.isDisposed = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  private func untilDisposed() async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let done = withLock { state in
        if state.isDisposed { return true }
        state.waiters.append(waiter)
        return false
      }
      if done { waiter.resume() }
    }
  }

  /// Takes the entries of `group` recorded up to `mark`.
  func take(group: CacheGroup, upTo mark: Int) -> [Entry] {
    withLock { state in
      var taken: [Entry] = []
      state.entries.removeAll { entry in
        guard entry.group == group, entry.sequence <= mark else { return false }
        taken.append(entry)
        return true
      }
      return taken
    }
  }

  /// Takes the entries of the instances `binding` made that were recorded after `mark`: a
  /// cached instance a later request or ``Container/store(_:for:tag:)`` replaced, which no
  /// reset will take (a reset takes the entries recorded up to its mark).
  ///
  /// Entries are kept in the order they were recorded, so only those after `mark` are read: a
  /// store into a cached binding costs what was recorded since the last reset, not the list.
  func take(madeBy binding: AnyBinding, after mark: Int) -> [Entry] {
    let owner = ObjectIdentifier(binding)
    return withLock { state in
      // The first entry recorded after `mark`.
      var low = 0
      var high = state.entries.count
      while low < high {
        let middle = low + (high - low) / 2
        if state.entries[middle].sequence <= mark { low = middle + 1 } else { high = middle }
      }
      var taken: [Entry] = []
      state.entries[low...].removeAll { entry in
        guard entry.owner == owner else { return false }
        taken.append(entry)
        return true
      }
      return taken
    }
  }

  /// Runs `entries`' disposals newest first, each once, every one even when some throw.
  static func dispose(_ entries: [Entry]) async throws(DisposalError) {
    var failures: [DisposalError.Failure] = []
    for entry in entries.reversed() {
      do {
        try await entry.run()
      } catch {
        failures.append(
          DisposalError.Failure(key: entry.key, declaredAt: entry.location, error: error))
      }
    }
    if !failures.isEmpty { throw DisposalError(failures: failures) }
  }
}

/// What ``Container/shutdown()``, ``Scope/close()`` and ``Container/close(_:)`` throw when
/// disposers threw: every failure, after every other instance was disposed.
///
/// ```swift
/// do {
///   try await container.shutdown()
/// } catch {
///   for failure in error.failures { logger.error("\(failure)") }
/// }
/// ```
public struct DisposalError: Error, Sendable, CustomStringConvertible {
  /// One disposer that threw.
  public struct Failure: Sendable, CustomStringConvertible {
    /// The binding whose instance's disposer threw.
    public let key: BindingKey
    /// Where that binding was declared.
    let declaredAt: BindingLocation
    /// What the disposer threw.
    public let error: any Error

    /// A one-line, human-readable description.
    public var description: String {
      "Disposing \(key) (bound at \(declaredAt)) threw: \(error)"
    }
  }

  /// Every disposer that threw, in the order they ran (newest instance first).
  public let failures: [Failure]

  /// A one-line, human-readable description.
  public var description: String {
    let lines = failures.map { "- \($0)" }.joined(separator: "\n")
    return """
      \(failures.count) disposer\(failures.count == 1 ? "" : "s") threw; every other instance \
      was disposed.
      \(lines)
      To fix: make the disposers above succeed (they ran once and will not run again).
      """
  }
}

/// What the factory of a scope-value binding throws when its scope was made without the value.
struct ScopeValueNotProvided: Error {}
