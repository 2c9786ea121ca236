/// Weak sharing: the same instance while someone outside holds it, a new one afterwards.
///
/// The container keeps a weak reference to the object and a copy of the instance's bits that
/// does not own it (the bound type may be a protocol existential wrapping the object). The bits
/// are copied out, with a retain, only while the weak reference proves the object alive.
// `object` and `storage` are only touched holding `gate`.
final class TransientBinding: AnyBinding, @unchecked Sendable {
  let maker: Maker
  /// The object inside an instance, or `nil` with the instance's dynamic type for a value.
  let object: @Sendable (UnsafeRawPointer) -> (AnyObject?, Any.Type)
  let gate = CreationGate()
  private weak var alive: AnyObject?

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, layout: ValueLayout, maker: @escaping Maker,
    object: @escaping @Sendable (UnsafeRawPointer) -> (AnyObject?, Any.Type)
  ) {
    self.maker = maker
    self.object = object
    super.init(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout)
  }

  // The bits in `storage` never owned a reference; `isReady` stays false, so the base class
  // only deallocates them.

  override func fresh() -> AnyBinding {
    let copy = TransientBinding(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout, maker: maker, object: object)
    copy.dependencies = dependencies
    return copy
  }

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
        let (instanceObject, dynamicType) = object(out)
        guard let instanceObject else {
          layout.destroy(out)
          throw .transientValueType(self, frame: frame, instanceType: dynamicType, in: container)
        }
        alive = instanceObject
        allocateStorage().copyMemory(from: out, byteCount: layout.size)
      }
    }
  }

  /// Reads the object out of an instance of `T`, or reports that it is a value.
  static func objectReader<T>(for _: T.Type)
    -> @Sendable (UnsafeRawPointer) -> (AnyObject?, Any.Type)
  {
    { pointer in
      let value = pointer.load(as: T.self)
      let dynamicType = type(of: value as Any)
      return (dynamicType is AnyObject.Type ? value as AnyObject : nil, dynamicType)
    }
  }
}
