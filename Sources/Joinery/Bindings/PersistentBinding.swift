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

/// A new instance on every resolve; the container keeps nothing.
// Immutable: only a @Sendable maker.
final class EphemeralBinding: FactoryBinding, @unchecked Sendable {

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try make(maker, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }
}

/// One instance per top-level resolve, shared by everything built during it.
// Immutable: instances live in the resolving thread's root frame, not here.
final class GraphBinding: FactoryBinding, @unchecked Sendable {

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = parent.joined()
    if parent.copyGraphInstance(of: self, into: out) { return }
    try parent.enter(self, fallbackTag: fallbackTag, in: container, graphSlots: true) {
      frame throws(ResolutionError) in
      try frame.make(maker, into: out, for: self, in: container)
      frame.storeGraphInstance(copyOf: out, for: self)
    }
  }
}
