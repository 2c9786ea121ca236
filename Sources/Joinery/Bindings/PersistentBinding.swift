/// One instance per container, created once; read without a lock once it exists.
// `storage` is written once under `gate` and published by `isReady` (release/acquire).
final class PersistentBinding: FactoryBinding, @unchecked Sendable {

  override func resolve(
    into out: UnsafeMutableRawPointer, copy: Copier, in container: Container,
    parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if !isReady {
      try create(in: container, parent: parent, fallbackTag: fallbackTag)
    }
    copy(storage.unsafelyUnwrapped, out)
  }

  /// Creates the instance unless it exists; used by resolves and by eager creation.
  @inline(never)
  func create(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = Frame.effective(parent)
    if let parent {
      try Frame.check(self, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) in
      if isReady { return }
      let memory = allocateStorage()
      try make(maker, into: memory, in: container, parent: parent, fallbackTag: fallbackTag)
      publishReady()
    }
  }
}

/// A new instance on every resolve; the container keeps nothing.
// Immutable: only a @Sendable maker.
final class EphemeralBinding: FactoryBinding, @unchecked Sendable {

  override func resolve(
    into out: UnsafeMutableRawPointer, copy: Copier, in container: Container,
    parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try make(maker, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }
}

/// One instance per top-level resolve, shared by everything built during it.
// Immutable: instances live in the resolving thread's root frame, not here.
final class GraphBinding: FactoryBinding, @unchecked Sendable {

  override func resolve(
    into out: UnsafeMutableRawPointer, copy: Copier, in container: Container,
    parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = Frame.effective(parent)
    if let parent, let existing = parent.pointee.root.pointee.graphInstance(for: self) {
      copy(existing, out)
      return
    }
    try Frame.enter(self, fallbackTag: fallbackTag, parent: parent, in: container, graphSlots: true)
    {
      frame throws(ResolutionError) in
      try invoke(maker, into: out, frame: frame, in: container)
      // The top-level instance is never asked for again in its own resolution.
      if frame.pointee.parent != nil {
        frame.pointee.root.pointee.storeGraphInstance(copyOf: out, for: self, copy: copy)
      }
    }
  }
}
