/// One instance per container, created once; read without a lock once it exists.
// `storage` is written once under `gate` and published by `isReady` (release/acquire).
final class PersistentBinding: FactoryBinding, @unchecked Sendable {

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if !isReady {
      try create(in: container, parent: parent, fallbackTag: fallbackTag)
    }
    out.initialize(copying: storage)
  }

  /// Creates the instance unless it exists; used by resolves and by eager creation.
  @inline(never)
  func create(
    in container: Container, parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = parent.joined()
    try parent.check(self, fallbackTag: fallbackTag, in: container)
    try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) in
      if isReady { return }
      allocateStorage()
      try make(
        maker, into: storage.slot(layout), in: container, parent: parent,
        fallbackTag: fallbackTag)
      publishReady()
    }
  }
}
