/// A fixed list of trivial elements in one allocation, written once when made and only read
/// after: what a lookup entry keeps beside its bindings so that the hot path compares raw words,
/// without bounds checks or reference counting.
///
/// Non-copyable, so exactly one owner frees the memory, when it is destroyed. The elements must
/// be trivial (words, unretained references): nothing is deinitialized.
@safe
@usableFromInline package struct _FrozenBuffer<Element>: ~Copyable {
  // Written only by `init`, before the buffer can be shared, then only read.
  @usableFromInline nonisolated(unsafe) let base: UnsafeMutablePointer<Element>?
  /// The number of elements.
  @usableFromInline package let count: Int

  /// A buffer of `count` elements, each made by `element` from its position.
  @usableFromInline package init(count: Int, _ element: (Int) -> Element) {
    _internalCheck(_isPOD(Element.self), "a frozen buffer holds trivial elements only")
    self.count = count
    guard count > 0 else {
      unsafe base = nil
      return
    }
    let base = UnsafeMutablePointer<Element>.allocate(capacity: count)
    for position in 0..<count { unsafe (base + position).initialize(to: element(position)) }
    unsafe self.base = unsafe base
  }

  deinit { unsafe base?.deallocate() }

  /// The positions of the elements, `0..<count`: made without the range's bounds check, as
  /// `count` is never negative.
  @inlinable
  package var indices: Range<Int> { unsafe Range(uncheckedBounds: (0, count)) }

  /// Whether the buffer has no element.
  @inlinable
  package var isEmpty: Bool { count == 0 }

  /// The element at `position`, which must be below ``count`` (checked under internal checks).
  @inlinable @inline(__always)
  package subscript(position: Int) -> Element {
    _internalCheck(position >= 0 && position < count, "position \(position) of \(count)")
    return unsafe base.unsafelyUnwrapped[position]
  }
}

extension _FrozenBuffer: Sendable where Element: Sendable {}
