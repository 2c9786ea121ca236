/// An object not retained by its holder: for objects that something else keeps alive for as
/// long as the holder is used (a resolver's container, a container's bindings).
///
/// The contract is its maker's: a handle is made only on an object that something else keeps
/// alive for longer than any reader holds the handle (the engine's tables make them on the
/// members they own). Reading it costs no reference counting, which is what the resolve path needs when many threads resolve
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
  @inlinable @inline(__always)
  package func read<R>(_ body: (Object) -> R) -> R {
    unsafe reference._withUnsafeGuaranteedRef(body)
  }

  /// Calls `body` with the object, without retaining it, rethrowing its error typed: what
  /// every resolution level reaches its container and binding through.
  @inlinable @inline(__always)
  package func with<R, E: _TypedFailure>(_ body: (Object) throws(E) -> R) throws(E) -> R {
    do {
      return try unsafe reference._withUnsafeGuaranteedRef { object in try body(object) }
    } catch let error as E {
      // The standard library's call rethrows untyped; inlined, the cast folds away.
      throw error
    } catch {
      throw E._unexpected()
    }
  }

  /// The object, retained: for a holder that outlives the call (a request that suspends).
  @inlinable @inline(__always)
  package var object: Object { unsafe reference.takeUnretainedValue() }

  /// Whether both handles are on the same object.
  @inlinable @inline(__always)
  package func isIdentical(to other: _Unretained) -> Bool {
    unsafe reference.toOpaque() == other.reference.toOpaque()
  }
}

/// An error type that the engine's calls which lend an object keep typed
/// (the throwing `with` of ``_Unretained``).
@usableFromInline package protocol _TypedFailure: Error {
  /// The error for a failure of another type: never thrown, since the closures these calls
  /// take throw only `Self` (the standard library's borrowing call rethrows untyped).
  static func _unexpected() -> Self
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

  /// Calls `body` with a handle on `value`, valid for the call: what a request that fell back
  /// to an untagged binding tells it it was asked with.
  @inlinable @inline(__always)
  package static func lending<Value: Hashable & Sendable, R, E: _TypedFailure>(
    _ value: Value, _ body: (_BorrowedTag) throws(E) -> R
  ) throws(E) -> R {
    try unsafe _withUnprotectedUnsafePointer(to: value) { pointer throws(E) -> R in
      try body(unsafe _BorrowedTag(value: pointer, type: Value.self))
    }
  }
}

extension Hashable where Self: Sendable {
  /// Copies the value at `pointer`.
  fileprivate static func _load(from pointer: UnsafeRawPointer) -> any Hashable & Sendable {
    unsafe pointer.load(as: Self.self)
  }
}
