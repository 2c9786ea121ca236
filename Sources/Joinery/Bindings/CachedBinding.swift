/// Like persistent, but dropped when its cache group is reset.
// `storage`, `hasInstance` and `generation` are only touched holding `gate`.
final class CachedBinding: FactoryBinding, CacheMember, @unchecked Sendable {
  @exclusivity(unchecked) private var hasInstance = false
  /// The group generation the instance belongs to.
  @exclusivity(unchecked) private var generation: UInt = 0
  /// Set once by `link(in:)`; the container owns the group.
  private(set) unowned var group: CacheGroupState?

  deinit {
    if hasInstance { storage.destroy(layout) }
  }

  override func link(in container: Container) {
    let group = container.cacheGroupState(for: lifetime.group ?? .default)
    group.add(self)
    self.group = group
  }

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = parent.joined()
    try parent.check(self, fallbackTag: fallbackTag, in: container)
    try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) in
      let current = group!.generation
      allocateStorage()
      if hasInstance {
        if generation == current {
          out.initialize(copying: storage)
          return
        }
        dropInstance()
      }
      try make(
        maker, into: storage.slot(layout), in: container, parent: parent,
        fallbackTag: fallbackTag)
      hasInstance = true
      generation = current
      out.initialize(copying: storage)
    }
  }

  /// Puts an instance in, as if the factory had made it now; `write` initializes the memory.
  func store(
    in container: Container, _ write: (_InstanceSlot) -> Void
  ) throws(ResolutionError) {
    try withCreationLock(for: self, fallbackTag: nil, parent: .topLevel, in: container) {
      allocateStorage()
      if hasInstance { dropInstance() }
      write(storage.slot(layout))
      hasInstance = true
      generation = group!.generation
    }
  }

  func dropInstanceIfIdle() {
    _ = ifCreationLockAvailable { if hasInstance { dropInstance() } }
  }

  private func dropInstance() {
    storage.destroy(layout)
    hasInstance = false
  }
}
