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
  let slot = Lock.make()

  /// Takes and gives back `slot`, for the inlinable read below.
  @usableFromInline final func lockSlot() { slot.lock() }
  @usableFromInline final func unlockSlot() { slot.unlock() }
  @usableFromInline @exclusivity(unchecked) weak var alive: AnyObject?

  // The bits in `storage` never owned a reference; `isReady` stays false, so the base class
  // only deallocates them.

  override func resolve(
    into out: UnsafeMutableRawPointer, copy: Copier, in container: Container,
    parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    // The common case: the instance is alive. No cycle is possible (nothing is being built)
    // and creation's gate is not needed.
    if copyAlive(into: out) { return }
    let parent = Frame.effective(parent)
    if let parent {
      try Frame.check(self, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) in
      // Another thread may have made it while this one waited for the gate.
      if copyAlive(into: out) { return }
      try Frame.enter(self, fallbackTag: fallbackTag, parent: parent, in: container) {
        frame throws(ResolutionError) in
        try invoke(maker, into: out, frame: frame, in: container)
        let (instanceObject, dynamicType) = layout.object(in: out)
        guard let instanceObject else {
          layout.destroy(out)
          throw .transientValueType(self, frame: frame, instanceType: dynamicType, in: container)
        }
        let memory = allocateStorage()
        slot.withLock {
          alive = instanceObject
          memory.copyMemory(from: out, byteCount: layout.size)
        }
      }
    }
  }

  /// Copies the instance into `out` if it is still alive: what the resolve's specialized code
  /// tries first, inline, with `T` known (so the copy is a few moves).
  @inlinable @inline(__always)
  func copyAlive<T>(into out: UnsafeMutableRawPointer, as _: T.Type) -> Bool {
    lockSlot()
    defer { unlockSlot() }
    do {
      guard let object = alive else { return false }
      // As in `copyAlive(into:)`: the bits go out with the reference the weak load took.
      out.copyMemory(from: storage.unsafelyUnwrapped, byteCount: MemoryLayout<T>.size)
      _ = Unmanaged.passRetained(object)
      return true
    }
  }

  /// Copies the instance into `out` if it is still alive.
  @inline(__always)
  func copyAlive(into out: UnsafeMutableRawPointer) -> Bool {
    slot.withLock {
      guard let object = alive else { return false }
      // The weak load retained the object, the one object the instance's bits refer to: hand
      // that reference to `out` with the bits instead of retaining again and releasing it. So
      // the object cannot die here, and no deinit runs under the lock.
      let bits = storage.unsafelyUnwrapped
      if layout.size == MemoryLayout<UInt>.size {
        out.storeBytes(of: bits.load(as: UInt.self), as: UInt.self)
      } else {
        out.copyMemory(from: bits, byteCount: layout.size)
      }
      _ = Unmanaged.passRetained(object)
      return true
    }
  }
}
