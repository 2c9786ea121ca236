import Synchronization

/// The lock that makes a shared instance be created exactly once.
///
/// Each shared binding has its own gate, so a slow factory only blocks requests for that same
/// binding. The gate records which thread holds it, which turns a re-entrant request into a
/// cycle error and lets ``WaitRegistry`` refuse a wait that would deadlock.
struct CreationGate: ~Copyable {
  /// The lock: made up front for lifetimes that take it on every resolve (cached), on first
  /// creation for the others, so a binding never resolved costs no lock.
  private let lazyMutex = AtomicLazyReference<Lock>()
  let owner = Atomic<UInt>(0)

  /// - Parameter lockedReads: Whether resolves take the lock every time (make it now).
  init(lockedReads: Bool) {
    if lockedReads { _ = lazyMutex.storeIfNil(Lock.make()) }
  }

  var mutex: Lock {
    if let existing = lazyMutex.load() { return existing }
    return lazyMutex.storeIfNil(Lock.make())
  }

  /// Runs `body` holding the gate; waits for another thread that holds it, unless that wait
  /// would never end.
  func withLock<R>(
    for binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>?,
    in container: Container, _ body: () throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    let me = ThreadIdentity.current
    let mutex = self.mutex
    if !mutex.tryLock() {
      if owner.load(ordering: .relaxed) == me {
        throw .reentrantCreation(binding, fallbackTag: fallbackTag, parent: parent, in: container)
      }
      try container.waits.beginWaiting(
        thread: me, for: binding, fallbackTag: fallbackTag, parent: parent, in: container)
      mutex.lock()
      container.waits.endWaiting(thread: me)
    }
    owner.store(me, ordering: .relaxed)
    defer {
      owner.store(0, ordering: .relaxed)
      mutex.unlock()
    }
    return try body()
  }

  /// Runs `body` if no thread holds the gate; returns whether it ran.
  func ifAvailable(_ body: () -> Void) -> Bool {
    let mutex = self.mutex
    guard mutex.tryLock() else { return false }
    defer { mutex.unlock() }
    body()
    return true
  }
}

/// Which thread waits for which binding, so that a wait that closes a ring is refused.
///
/// Touched only when a thread finds a gate taken, never on the fast path.
final class WaitRegistry: Sendable {
  private let waits = Protected<[UInt: AnyBinding]>([:])

  func beginWaiting(
    thread: UInt, for binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: UnsafePointer<Frame>?,
    in container: Container
  ) throws(ResolutionError) {
    let ring: [BindingKey]? = waits.withLock { waits in
      var chain = [binding.key]
      var target = binding
      for _ in 0...waits.count {
        let holder = target.creatingThread
        if holder == 0 { break }
        if holder == thread { return chain }
        guard let next = waits[holder] else { break }
        chain.append(next.key)
        target = next
      }
      waits[thread] = binding
      return nil
    }
    if let ring {
      throw .crossThreadCycle(
        binding, fallbackTag: fallbackTag, parent: parent, waitingChain: ring, in: container)
    }
  }

  func endWaiting(thread: UInt) {
    waits.withLock { _ = $0.removeValue(forKey: thread) }
  }
}
