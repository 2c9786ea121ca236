/// The instances of one cache group in one container: a generation number that a reset bumps,
/// and the members to drop.
final class CacheGroupState: Sendable {
  let group: CacheGroup
  private let state = Protected(State())

  private struct State {
    /// Bumped by every reset; instances made in an older generation are stale.
    ///
    /// Starts at 1, so that a member can use 0 for "no instance".
    var generation: UInt = 1
    var members: [AnyBinding] = []
    /// The container's disposal mark at the last reset: that reset disposes what was recorded
    /// up to it, and a member disposes an instance it replaces that was recorded after it.
    var resetMark = 0
  }

  init(group: CacheGroup) {
    self.group = group
  }

  /// The current generation: instances made in an older one are stale.
  var generation: UInt { state.withLock { $0.generation } }

  func add(_ member: AnyBinding) {
    state.withLock { $0.members.append(member) }
  }

  /// Makes every member build anew on its next resolve and drops the instances no thread is
  /// using right now; returns `disposals`' mark at the reset, up to which the reset disposes
  /// the group's instances.
  ///
  /// Never blocks on a running factory.
  func reset(marking disposals: DisposalList) -> Int {
    let (members, mark) = state.withLock { state in
      state.generation += 1
      state.resetMark = disposals.mark
      return (state.members, state.resetMark)
    }
    for member in members { member.dropInstanceIfIdle() }
    return mark
  }

  /// Disposes, in a task of its own that ``Container/shutdown()`` waits for, what `binding`'s
  /// instances recorded since the last reset owe: the instances a newer one replaced (a later
  /// request after a reset that found the old one being made, or a store), which no reset will
  /// dispose.
  ///
  /// Takes them under the group's lock, so that a reset running at the same time takes each
  /// entry or leaves it to this, never both.
  func disposeReplaced(madeBy binding: AnyBinding, in container: Container) {
    let disposals = container.disposals
    let replaced = state.withLock { disposals.take(madeBy: binding, after: $0.resetMark) }
    disposals.disposeDetached(
      replaced, context: "disposing the cached \(binding.key) a newer instance replaced")
  }
}
