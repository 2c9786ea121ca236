internal import JoineryEngine

/// A value protected by a ``_Lock``: the state lives inside, reachable only while locked.
///
/// Give it a state with storage: ThreadSanitizer reports the access to an empty one (`Void`)
/// as a race between threads that both hold the lock.
// `state` is reached only holding `lock`.
final class Protected<State>: @unchecked Sendable {
  private let lock = _Lock.make()
  // Reached only holding `lock`, which already makes every access exclusive.
  @safe @exclusivity(unchecked) private var state: State

  init(_ state: State) { self.state = state }

  @inline(__always)
  func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    try lock.withLock { () throws(E) -> R in try body(&state) }
  }

  /// Runs `body` holding the lock if no thread holds it; `nil` (without running it) if one does.
  func withLockIfAvailable<R, E: Error>(
    _ body: (inout State) throws(E) -> R
  ) throws(E) -> R? {
    guard lock.tryLock() else { return nil }
    defer { lock.unlock() }
    return try body(&state)
  }
}
