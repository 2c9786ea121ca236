/// Memory laid out as a tuple whose elements are written one at a time by code that does not
/// know their types: an autowired initializer's parameters, each resolved into its place.
///
/// Swift specializes no call made for one element of a parameter pack, so code that resolves
/// `repeat each Parameter` one generic call at a time stays generic below the pack. With this
/// buffer, a non-generic loop fills the elements at their offsets, and
/// the whole tuple is then moved out by code that is specialized for it.
///
/// Lent for the duration of ``_withTupleBuffer(of:_:)``: non-copyable and only borrowed.
@safe
@frozen
@usableFromInline package struct _TupleBuffer: ~Copyable {
  @usableFromInline let base: UnsafeMutableRawPointer

  @inlinable
  init(base: UnsafeMutableRawPointer) { unsafe self.base = unsafe base }

  /// A slot for the element at `offset`, of the type `layout` describes.
  @inlinable @inline(__always)
  package func slot(at offset: Int, _ layout: _ValueLayout) -> _InstanceSlot {
    unsafe layout.slot(at: base + offset)
  }

  /// A slot for the element at `offset`, of `type`, which is one class reference: its copier
  /// captures nothing, so nothing is released when the slot ends.
  @inlinable @inline(__always)
  package func referenceSlot(at offset: Int, type: Any.Type) -> _InstanceSlot {
    unsafe _InstanceSlot(reference: base + offset, type: type)
  }

  /// A slot for the element at `offset`, of type `T`.
  @inlinable @inline(__always)
  package func slot<T>(at offset: Int, of _: T.Type) -> _InstanceSlot {
    unsafe _InstanceSlot(address: base + offset, of: T.self)
  }

  /// Deinitializes the element at `offset`, of the type `layout` describes.
  @inlinable
  package func destroy(at offset: Int, _ layout: _ValueLayout) {
    unsafe layout.destroy(base + offset)
  }
}

/// A `Tuple` whose elements `fill` writes, every one of them, into a ``_TupleBuffer``; if
/// `fill` throws, it has deinitialized the ones it wrote.
@inlinable @inline(__always)
package func _withTupleBuffer<Tuple, E: Error>(
  of _: Tuple.Type, _ fill: (borrowing _TupleBuffer) throws(E) -> Void
) throws(E) -> Tuple {
  let result: Result<Tuple, E> = unsafe withUnsafeTemporaryAllocation(
    of: Tuple.self, capacity: 1
  ) { memory in
    let tuple = unsafe memory.baseAddress.unsafelyUnwrapped
    do throws(E) {
      try unsafe fill(_TupleBuffer(base: UnsafeMutableRawPointer(tuple)))
    } catch {
      return .failure(error)
    }
    return .success(unsafe tuple.move())
  }
  return try result.get()
}
