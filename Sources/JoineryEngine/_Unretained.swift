/// An object not retained by its holder: for objects that something else keeps alive for as
/// long as the holder is used (a resolver's container, a container's bindings).
///
/// The contract is the caller's: the object must outlive every use of the handle. Reading it
/// costs no reference counting, which is what the resolve path needs when many threads resolve
/// through the same objects at once.
@frozen
public struct _Unretained<Object: AnyObject> {
  /// The unretained reference.
  public let reference: Unmanaged<Object>

  /// A handle on `object`, which the caller keeps alive.
  @inlinable @inline(__always)
  public init(_ object: Object) { reference = Unmanaged.passUnretained(object) }

  /// A handle on the object `reference` points to.
  @inlinable @inline(__always)
  public init(_ reference: Unmanaged<Object>) { self.reference = reference }

  /// Calls `body` with the object, without retaining it.
  @inlinable @inline(__always)
  public func with<R, E: Error>(_ body: (Object) throws(E) -> R) throws(E) -> R {
    try _withGuaranteed(reference, body)
  }
}

/// Calls `body` with the object `reference` points to, without retaining it: for objects that
/// something else keeps alive for the whole call.
@inlinable @inline(__always)
public func _withGuaranteed<Object: AnyObject, R, E: Error>(
  _ reference: Unmanaged<Object>, _ body: (Object) throws(E) -> R
) throws(E) -> R {
  do {
    return try reference._withUnsafeGuaranteedRef { object in try body(object) }
  } catch {
    // `_withUnsafeGuaranteedRef` rethrows untyped; `body` throws only `E`.
    throw error as! E
  }
}

/// A `T` initialized by `initialize` in memory it is given: a fixed stack buffer
/// (``_InstanceBuffer``) when `T` fits, which asks the runtime for no generic metadata even
/// where the call is not specialized (an autowired initializer's parameter pack), else a
/// temporary allocation, out of line.
@inlinable @inline(__always)
public func _building<T, E: Error>(
  _: T.Type, _ initialize: (UnsafeMutableRawPointer) throws(E) -> Void
) throws(E) -> T {
  guard
    MemoryLayout<T>.size <= MemoryLayout<_InstanceBuffer>.size,
    MemoryLayout<T>.alignment <= MemoryLayout<_InstanceBuffer>.alignment
  else {
    return try _buildingLarge(T.self, initialize)
  }
  var space = _InstanceBuffer()
  try initialize(&space)
  return _move(from: &space, as: T.self)
}

/// ``_building(_:_:)`` for a type larger than ``_InstanceBuffer``: out of line, so that the
/// metadata `withUnsafeTemporaryAllocation` asks for is never requested on the common path.
@inlinable @inline(never)
public func _buildingLarge<T, E: Error>(
  _: T.Type, _ initialize: (UnsafeMutableRawPointer) throws(E) -> Void
) throws(E) -> T {
  try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer throws(E) -> T in
    let out = buffer.baseAddress.unsafelyUnwrapped
    try initialize(UnsafeMutableRawPointer(out))
    return out.move()
  }
}

/// Moves the `T` at `instance` out, leaving the memory uninitialized.
@inlinable @inline(__always)
public func _move<T>(from instance: UnsafeMutableRawPointer, as _: T.Type) -> T {
  instance.assumingMemoryBound(to: T.self).move()
}
