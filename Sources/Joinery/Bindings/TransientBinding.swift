/// Weak sharing: the same instance while someone outside holds it, a new one afterwards.
///
/// The container keeps a weak reference to the object and a copy of the instance's bits that
/// does not own it (the bound type may be a protocol existential wrapping the object). The bits
/// are copied out only while the weak reference proves the object alive, together with the
/// reference that loading it took.
// `alive` and `storage` are read and written only holding `slot`; they are written only while
// also holding `gate`, which makes creation single-flight.
@usableFromInline
final class TransientBinding: FactoryBinding, @unchecked Sendable {
  /// Guards `alive` and `storage` for the few instructions a read takes.
  let slot = _Lock.make()

  /// Takes and gives back `slot`, for the inlinable read below.
  @usableFromInline final func lockSlot() { slot.lock() }
  @usableFromInline final func unlockSlot() { slot.unlock() }
  @usableFromInline @exclusivity(unchecked) weak var alive: AnyObject?

  // The bits in `storage` never owned a reference; `isReady` stays false, so the base class
  // only deallocates them.

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    // The common case: the instance is alive. No cycle is possible (nothing is being built)
    // and creation's gate is not needed.
    if copyAlive(into: out) { return }
    let parent = parent.joined()
    try parent.check(self, fallbackTag: fallbackTag, in: container)
    try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) in
      // Another thread may have made it while this one waited for the gate.
      if copyAlive(into: out) { return }
      try parent.enter(self, fallbackTag: fallbackTag, in: container) {
        frame throws(ResolutionError) in
        try frame.make(maker, into: out, for: self, in: container)
        let (instanceObject, dynamicType) = out.object(layout)
        guard let instanceObject else {
          out.destroy(layout)
          throw .transientValueType(self, frame: frame, instanceType: dynamicType, in: container)
        }
        allocateStorage()
        slot.withLock {
          alive = instanceObject
          out.copyBits(into: storage, layout)
        }
      }
    }
  }

  /// Copies the instance into `out` if it is still alive: what the resolve's specialized code
  /// tries first, inline, with `T` known (so the copy is a few moves).
  @inlinable @inline(__always)
  func copyAlive<T>(into out: _InstanceSlot, as _: T.Type) -> Bool {
    lockSlot()
    defer { unlockSlot() }
    guard let object = alive else { return false }
    // As in `copyAlive(into:)`: the bits go out with the reference the weak load took.
    out.takeBits(of: storage, as: T.self, handingOver: object)
    return true
  }

  /// Copies the instance into `out` if it is still alive.
  @inline(__always)
  func copyAlive(into out: _InstanceSlot) -> Bool {
    slot.withLock {
      guard let object = alive else { return false }
      // The weak load retained the object, the one object the instance's bits refer to: hand
      // that reference to `out` with the bits instead of retaining again and releasing it. So
      // the object cannot die here, and no deinit runs under the lock.
      out.takeBits(of: storage, layout, handingOver: object)
      return true
    }
  }
}
