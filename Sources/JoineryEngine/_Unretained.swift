/// An object not retained by its holder: for objects that something else keeps alive for as
/// long as the holder is used (a resolver's container, a container's bindings).
///
/// The contract is the caller's: the object must outlive every use of the handle. Reading it
/// costs no reference counting, which is what the resolve path needs when many threads resolve
/// through the same objects at once.
@safe
@frozen
@usableFromInline package struct _Unretained<Object: AnyObject> {
  /// The unretained reference.
  @usableFromInline package let reference: Unmanaged<Object>

  /// A handle on `object`, which the caller keeps alive.
  @inlinable @inline(__always)
  package init(_ object: Object) { unsafe reference = unsafe Unmanaged.passUnretained(object) }

  /// A handle on the object `reference` points to.
  @inlinable @inline(__always)
  package init(_ reference: Unmanaged<Object>) { unsafe self.reference = unsafe reference }

  /// Calls `body` with the object, without retaining it.
  ///
  /// Not throwing: a resolution level's throwing calls use a function written for their error
  /// type in the resolver, since a generic error type costs a debug build stack space per level.
  @unsafe @inlinable @inline(__always)
  package func with<R>(_ body: (Object) -> R) -> R {
    unsafe reference._withUnsafeGuaranteedRef(body)
  }
}

/// Moves the `T` at `instance` out, leaving the memory uninitialized.
@inlinable @inline(__always)
package func _move<T>(from instance: UnsafeMutableRawPointer, as _: T.Type) -> T {
  unsafe instance.assumingMemoryBound(to: T.self).move()
}

extension _Unretained: Sendable where Object: Sendable {}

/// A value of some `Hashable & Sendable` type, borrowed from the caller's frame by address: what
/// a request asked with, kept by reference so that the common path copies nothing.
///
/// Valid only while the caller's frame holds the value: a resolution keeps it in the frames it
/// makes below that caller, never beyond.
@safe
@usableFromInline package struct _BorrowedTag {
  @usableFromInline let value: UnsafeRawPointer
  /// The value's type; always also `Sendable`, as every tag API requires.
  @usableFromInline package let type: any (Hashable & Sendable).Type

  /// A handle on the value at `value`, of type `type`, which the caller keeps alive.
  @unsafe @inlinable
  package init(value: UnsafeRawPointer, type: any (Hashable & Sendable).Type) {
    unsafe self.value = unsafe value
    self.type = type
  }

  /// A copy of the value, which outlives the request.
  package var copy: any Hashable & Sendable { unsafe type._load(from: value) }
}

extension Hashable where Self: Sendable {
  /// Copies the value at `pointer`.
  fileprivate static func _load(from pointer: UnsafeRawPointer) -> any Hashable & Sendable {
    unsafe pointer.load(as: Self.self)
  }
}
