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
