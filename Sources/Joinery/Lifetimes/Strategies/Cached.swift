internal import JoineryEngine

/// `cached`: like persistent, one instance per container, until its ``CacheGroup`` is reset
/// (``Container/reset(_:)``); the next request then makes a new one.
///
/// Synchronous: the instance in `storage` and the group generation it was made in, in the
/// binding's ``LifetimeCell``, both touched only holding the creation gate.
/// Asynchronous: as persistent, a creation made in a task of its own, started anew when the
/// group's generation moved on.
final class CachedLifetime: LifetimeKind {
  override class var name: String { "cached" }
  override class var reach: Lifetime.Reach { .container }
  override class var retainsInstance: Bool { true }
  override class var usesCell: Bool { true }

  override class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try binding.createKept(into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }

  override class func holdsInstance(_ binding: AnyBinding) -> Bool {
    let (made, current) = binding.cachedGenerations()
    return made != 0 && made == current
  }

  override class func resolveAsync(
    _ binding: AnyBinding, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    try await binding.containerInstance(node: node, resolver: resolver, path: path, in: container)
  }
}

extension AnyBinding {
  /// The generation the cached instance was made in (0 for none) and the group's current one.
  func cachedGenerations() -> (made: UInt, current: UInt) {
    cell?.withLock { ($0.generation, $0.group?.generation ?? 1) } ?? (0, 1)
  }

  /// Puts a cached instance in, as if the factory had made it now.
  ///
  /// `write` initializes the memory. The instance it replaces is disposed, unless `isStored`
  /// says it is the same one.
  func store(
    in container: Container, isStored: (Any) -> Bool, _ write: (borrowing _InstanceSlot) -> Void
  ) throws(ResolutionError) {
    try withCreationLock(for: self, fallbackTag: nil, parent: .topLevel, in: container) {
      allocateStorage()
      let (made, current) = cachedGenerations()
      if made != 0 {
        if isStored(storage.loadAny(layout)) {
          cell?.withLock { $0.generation = current }
          return false
        }
        dropReplacedInstance(in: container)
      }
      write(storage.slot(layout))
      cell?.withLock { $0.generation = current }
      // Disposed like an instance its factory made: at close(group) or shutdown().
      recordDisposal(in: container.disposals)
      return false
    }
  }

  /// Destroys the cached instance a newer one replaces, and disposes it in a task of its own
  /// (``Container/shutdown()`` waits for it), unless a reset took its disposal; called holding
  /// the creation gate.
  func dropReplacedInstance(in container: Container) {
    dropInstance()
    guard disposer != nil else { return }
    cell?.withLock({ $0.group })?.disposeReplaced(madeBy: self, in: container)
  }

  /// Destroys the cached instance; called holding the creation gate.
  func dropInstance() {
    storage.destroy(layout)
    cell?.withLock { $0.generation = 0 }
  }
}
