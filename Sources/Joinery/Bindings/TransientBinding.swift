/// Weak sharing: the same instance while someone outside holds it, a new one afterwards.
///
/// The container keeps a weak reference to the object and a copy of the `T` value's bits that
/// does not own it (`T` may be a protocol existential wrapping the object). The bits are read
/// back, with a retain, only while the weak reference proves the object alive.
// `object` and `bits` are only touched holding `gate`.
final class TransientBinding<T>: Binding<T>, @unchecked Sendable {
  let factory: Factory<T>
  let gate = CreationGate()
  /// Guarded by `gate`.
  private weak var object: AnyObject?
  /// Unowned bits of the last `T` made; guarded by `gate`.
  private let bits: UnsafeMutableRawPointer

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, factory: @escaping Factory<T>
  ) {
    self.factory = factory
    bits = .allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
    super.init(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride)
  }

  deinit {
    // The bits never owned a reference, so there is nothing to release.
    bits.deallocate()
  }

  override var creatingThread: UInt { gate.owner.load(ordering: .relaxed) }

  override func resolve(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    if let parent {
      try Frame.check(self, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    return try gate.withLock(
      for: self, fallbackTag: fallbackTag, parent: parent, in: container
    ) { () throws(ResolutionError) -> T in
      if let alive = object {
        let value = bits.load(as: T.self)
        withExtendedLifetime(alive) {}
        return value
      }
      return try Frame.enter(self, fallbackTag: fallbackTag, parent: parent, in: container) {
        frame throws(ResolutionError) in
        let made = try invoke(factory, frame: frame, in: container)
        let dynamicType = type(of: made as Any)
        guard dynamicType is AnyObject.Type else {
          throw .transientValueType(self, frame: frame, instanceType: dynamicType, in: container)
        }
        object = made as AnyObject
        withUnsafeBytes(of: made) { source in
          bits.copyMemory(from: source.baseAddress.unsafelyUnwrapped, byteCount: source.count)
        }
        return made
      }
    }
  }
}
