/// Who makes an instance, by identity: an object's address, not retained.
///
/// A resolution chain and a resolution's `graph` instances are keyed by owners; the resolver
/// passes its bindings. Comparing and hashing owners is safe whatever became of the object;
/// getting the object back (``object(as:)``) is not, and is marked so.
@safe
@frozen
@usableFromInline package struct _Owner: Equatable {
  /// The object's address.
  @usableFromInline let address: UnsafeRawPointer

  /// The owner that `object` is, without retaining it.
  @inlinable @inline(__always)
  package init(_ object: AnyObject) {
    unsafe address = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
  }

  /// The owner at `address`: an object's address that some other owner gave.
  @unsafe @inlinable @inline(__always)
  package init(address: UnsafeRawPointer) { unsafe self.address = address }

  /// The address as a number: for hashing and filters.
  @inlinable
  package var bits: UInt { unsafe UInt(bitPattern: address) }

  /// The object, which the caller knows to be alive and of type `T`.
  @unsafe @inlinable @inline(__always)
  package func object<T: AnyObject>(as _: T.Type) -> T {
    unsafe Unmanaged<T>.fromOpaque(address).takeUnretainedValue()
  }

  /// Whether two owners are the same object.
  @inlinable
  package static func == (lhs: _Owner, rhs: _Owner) -> Bool { unsafe lhs.address == rhs.address }
}
