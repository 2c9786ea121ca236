/// A binding that belongs to a cache group.
protocol CacheMember: AnyObject, Sendable {
  func dropInstanceIfIdle()
}

/// The instances of one cache group in one container: a generation number that a reset bumps,
/// and the members to drop.
// `atomicWords` is touched only atomically; the members only under their lock.
final class CacheGroupState: _AtomicWordsHolder, @unchecked Sendable {
  /// Word 0: the generation, which a reset bumps (read acquiring, bumped releasing). First, as
  /// ``_AtomicWordsHolder`` requires.
  private var atomicWords: UInt = 1
  let group: CacheGroup
  private let members = Protected<[any CacheMember]>([])

  init(group: CacheGroup) {
    self.group = group
    _checkAtomicWordsLayout(&atomicWords)
  }

  /// The current generation: instances made in an older one are stale.
  var generation: UInt { _loadAcquiring(0) }

  func add(_ member: any CacheMember) {
    members.withLock { $0.append(member) }
  }

  /// Makes every member build anew on its next resolve and drops the instances no thread is
  /// using right now. Never blocks on a running factory.
  func reset() {
    _ = _add(0, 1)
    for member in members.withLock({ $0 }) { member.dropInstanceIfIdle() }
  }
}
