import Synchronization

/// Like persistent, but dropped when its cache group is reset.
// `storage`, `hasInstance` and `generation` are only touched holding `gate`.
final class CachedBinding: FactoryBinding, CacheMember, @unchecked Sendable {
  let gate = CreationGate(lockedReads: true)
  @exclusivity(unchecked) private var hasInstance = false
  /// The group generation the instance belongs to.
  @exclusivity(unchecked) private var generation: UInt64 = 0
  /// Set once by `link(in:)`; the container owns the group.
  private(set) unowned(unsafe) var group: CacheGroupState!

  deinit {
    if hasInstance, let storage { layout.destroy(storage) }
  }

  override var creatingThread: UInt { gate.owner.load(ordering: .relaxed) }

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
    try gate.withLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) in
      let current = group.generation.load(ordering: .acquiring)
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
    try gate.withLock(for: self, fallbackTag: nil, parent: nil, in: container) {
      let memory = allocateStorage()
      if hasInstance { dropInstance() }
      write(memory)
      hasInstance = true
      generation = group.generation.load(ordering: .acquiring)
    }
  }

  func dropInstanceIfIdle() {
    _ = gate.ifAvailable { if hasInstance { dropInstance() } }
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
final class CacheGroupState: Sendable {
  let group: CacheGroup
  let generation = Atomic<UInt64>(1)
  private let members = Protected<[any CacheMember]>([])

  init(group: CacheGroup) { self.group = group }

  func add(_ member: any CacheMember) {
    members.withLock { $0.append(member) }
  }

  /// Makes every member build anew on its next resolve and drops the instances no thread is
  /// using right now. Never blocks on a running factory.
  func reset() {
    generation.add(1, ordering: .releasing)
    for member in members.withLock({ $0 }) { member.dropInstanceIfIdle() }
  }
}
