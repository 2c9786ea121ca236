/// A binding that belongs to a cache group.
protocol CacheMember: AnyObject, Sendable {
  func dropInstanceIfIdle()
}

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
    var members: [any CacheMember] = []
  }

  init(group: CacheGroup) {
    self.group = group
  }

  /// The current generation: instances made in an older one are stale.
  var generation: UInt { state.withLock { $0.generation } }

  func add(_ member: any CacheMember) {
    state.withLock { $0.members.append(member) }
  }

  /// Makes every member build anew on its next resolve and drops the instances no thread is
  /// using right now.
  ///
  /// Never blocks on a running factory.
  func reset() {
    let members = state.withLock { state in
      state.generation += 1
      return state.members
    }
    for member in members { member.dropInstanceIfIdle() }
  }
}
