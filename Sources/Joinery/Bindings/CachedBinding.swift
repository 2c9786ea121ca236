/// Like persistent, but dropped when its cache group is reset.
// `storage`, `hasInstance` and `generation` are only touched holding `gate`.
final class CachedBinding: FactoryBinding, CacheMember, @unchecked Sendable {
  @exclusivity(unchecked) private var hasInstance = false
  /// The group generation the instance belongs to.
  @exclusivity(unchecked) private var generation: UInt = 0
  /// Set once by `link(in:)`; the container owns the group.
  private(set) unowned(unsafe) var group: CacheGroupState!

  deinit {
    if hasInstance, let storage { layout.destroy(storage) }
  }

  override func link(in container: Container) {
    group = container.cacheGroupState(for: lifetime.group ?? .default)
    group.add(self)
  }

  override func resolve(
    into out: UnsafeMutableRawPointer, copy: Copier, in container: Container,
    parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = Frame.effective(parent)
    if let parent {
      try Frame.check(self, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) in
      let current = group.generation
      let memory = allocateStorage()
      if hasInstance {
        if generation == current {
          copy(memory, out)
          return
        }
        dropInstance()
      }
      try make(maker, into: memory, in: container, parent: parent, fallbackTag: fallbackTag)
      hasInstance = true
      generation = current
      copy(memory, out)
    }
  }

  /// Puts an instance in, as if the factory had made it now; `write` initializes the memory.
  func store(
    in container: Container, _ write: (UnsafeMutableRawPointer) -> Void
  ) throws(ResolutionError) {
    try withCreationLock(for: self, fallbackTag: nil, parent: nil, in: container) {
      let memory = allocateStorage()
      if hasInstance { dropInstance() }
      write(memory)
      hasInstance = true
      generation = group.generation
    }
  }

  func dropInstanceIfIdle() {
    _ = ifCreationLockAvailable { if hasInstance { dropInstance() } }
  }

  private func dropInstance() {
    layout.destroy(storage.unsafelyUnwrapped)
    hasInstance = false
  }
}

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
  private var atomicWords: (UInt, UInt) = (1, 0)
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
