/// Weak sharing: the same instance while someone outside holds it, a new one afterwards.
///
/// The container keeps a weak reference to the object and a copy of the instance's bits that
/// does not own it (the bound type may be a protocol existential wrapping the object). The bits
/// are copied out, with a retain, only while the weak reference proves the object alive.
// `alive` and `storage` are only touched holding `gate`.
final class TransientBinding: FactoryBinding, @unchecked Sendable {
  let gate = CreationGate(lockedReads: true)
  private weak var alive: AnyObject?

  // The bits in `storage` never owned a reference; `isReady` stays false, so the base class
  // only deallocates them.

  override var creatingThread: UInt { gate.owner.load(ordering: .relaxed) }

  override func resolve(
    into out: UnsafeMutableRawPointer, copy: Copier, in container: Container,
    parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if let parent {
      try Frame.check(self, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    try gate.withLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) in
      if let alive {
        copy(storage.unsafelyUnwrapped, out)
        withExtendedLifetime(alive) {}
        return
      }
      try Frame.enter(self, fallbackTag: fallbackTag, parent: parent, in: container) {
        frame throws(ResolutionError) in
        try invoke(maker, into: out, frame: frame, in: container)
        let (instanceObject, dynamicType) = layout.object(in: out)
        guard let instanceObject else {
          layout.destroy(out)
          throw .transientValueType(self, frame: frame, instanceType: dynamicType, in: container)
        }
        alive = instanceObject
        allocateStorage().copyMemory(from: out, byteCount: layout.size)
      }
    }
  }
}
