// Public: the inlinable resolve path reads a binding's ready flag through the atomic words.
public import JoineryPlatform

/// Memory for instances of types the engine does not know statically.
///
/// Bindings are not generic: the bound type is known only to the closures made when it was
/// declared and to the generic resolve call. So instances travel as raw memory plus a
/// ``_ValueLayout``, and everything that touches that memory is here. The rest of the library
/// sees ``_InstanceSlot`` (where one request's instance goes), ``_InstanceStorage`` (where a
/// binding keeps one) and ``_Arguments`` (a request's runtime arguments), never an address.

/// Copies an instance of the bound type from the first address to the second (uninitialized).
@usableFromInline package typealias _Copier =
  @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer) -> Void

/// Uninitialized memory, on the caller's stack, for one instance that fits: a class reference,
/// a protocol existential (five words) and most small structs.
@frozen
@usableFromInline package struct _InstanceBuffer {
  /// The buffer's storage: eight words.
  @usableFromInline package var words: (Int, Int, Int, Int, Int, Int, Int, Int) = (
    0, 0, 0, 0, 0, 0, 0, 0
  )
  /// An uninitialized buffer.
  @inlinable package init() {}
}

/// Where one request's instance goes: uninitialized memory for the bound type, and how to copy
/// an instance of it.
///
/// Lent to a binding for the duration of one resolve: non-copyable and only ever borrowed, so
/// no binding can keep it (what must outlive the lending, such as a later cleanup, is an
/// ``_InstanceCleanup``).
///
/// Its typed operations take the bound type on trust; with internal checks compiled in
/// (`JOINERY_INTERNAL_CHECKS`), the slot remembers the type it was made for and each typed
/// operation checks that it is given that type.
@safe
@frozen
@usableFromInline package struct _InstanceSlot: ~Copyable {
  /// The instance's memory.
  @usableFromInline package let address: UnsafeMutableRawPointer
  /// Copies an instance of the bound type.
  @usableFromInline package let copier: _Copier
  #if JOINERY_INTERNAL_CHECKS
    /// The bound type, for the typed operations' checks.
    @usableFromInline package let checkedType: Any.Type
  #endif

  /// A slot for an instance of `type` whose copier copies it.
  @inlinable
  package init(address: UnsafeMutableRawPointer, copier: @escaping _Copier, type: Any.Type) {
    unsafe self.address = unsafe address
    unsafe self.copier = unsafe copier
    #if JOINERY_INTERNAL_CHECKS
      checkedType = type
    #endif
  }

  /// A slot whose copier copies `T`.
  ///
  /// For a class reference the copier is one retain and captures nothing, so making the slot
  /// allocates nothing also where `T` is not known at compile time (an unspecialized resolve,
  /// such as a parameter-pack initializer's); a closure copying `T` itself would need a
  /// context holding `T`'s metadata there, allocated for every resolve. Specialized, the test
  /// folds away.
  @inlinable @inline(__always)
  package init<T>(address: UnsafeMutableRawPointer, of _: T.Type) {
    unsafe self.address = unsafe address
    if _isSingleReference(T.self) {
      unsafe copier = unsafe Self.referenceCopier
    } else {
      unsafe copier = { source, destination in
        unsafe destination.initializeMemory(as: T.self, to: source.load(as: T.self))
      }
    }
    #if JOINERY_INTERNAL_CHECKS
      checkedType = T.self
    #endif
  }

  /// A slot for an instance of `type`, which is one class reference (``_isSingleReference(_:)``).
  @inlinable @inline(__always)
  package init(reference address: UnsafeMutableRawPointer, type: Any.Type) {
    unsafe self.init(address: address, copier: Self.referenceCopier, type: type)
  }

  /// Copies one class reference (a retain), capturing nothing.
  @inlinable
  package static var referenceCopier: _Copier {
    { source, destination in
      unsafe destination.initializeMemory(as: AnyObject.self, to: source.load(as: AnyObject.self))
    }
  }

  /// Checks that `T` is the type the slot was made for (internal checks only).
  @inlinable @inline(__always)
  package func checkType<T>(_: T.Type, _ operation: StaticString) {
    #if JOINERY_INTERNAL_CHECKS
      _internalCheck(
        checkedType == T.self,
        "\(operation) as \(T.self) on a slot for \(checkedType)")
    #endif
  }

  /// Initializes the slot with `value`; `T` is the bound type.
  @inlinable @inline(__always)
  package func initialize<T>(to value: consuming T) {
    checkType(T.self, "initialize")
    unsafe address.initializeMemory(as: T.self, to: value)
  }

  /// Initializes the slot with a copy of the instance `storage` holds.
  @inlinable @inline(__always)
  package func initialize(copying storage: borrowing _InstanceStorage) {
    unsafe copier(UnsafeRawPointer(storage.address.unsafelyUnwrapped), address)
  }

  /// Initializes `storage` (allocated, uninitialized) with a copy of the slot's instance.
  @inlinable @inline(__always)
  package func copy(into storage: borrowing _InstanceStorage) {
    unsafe copier(UnsafeRawPointer(address), storage.address.unsafelyUnwrapped)
  }

  /// The slot's instance as `T`, moved out (the slot is uninitialized afterwards).
  @inlinable
  package func take<T>(as _: T.Type) -> T {
    checkType(T.self, "take")
    return unsafe address.assumingMemoryBound(to: T.self).move()
  }

  /// The slot's instance as `T`, copied.
  @inlinable
  package func load<T>(as _: T.Type) -> T {
    checkType(T.self, "load")
    return unsafe address.load(as: T.self)
  }

  /// Deinitializes the slot's instance.
  @inlinable
  package func destroy(_ layout: _ValueLayout) { unsafe layout.destroy(address) }

  /// What destroys the slot's instance later, if a step after the slot's own use fails.
  @inlinable
  package func cleanup(_ layout: _ValueLayout) -> _InstanceCleanup {
    unsafe _InstanceCleanup(address: address, layout: layout)
  }

  /// The object the slot's instance holds, or `nil` for a value; and its dynamic type.
  @inlinable
  package func object(_ layout: _ValueLayout) -> (AnyObject?, Any.Type) {
    unsafe layout.object(in: address)
  }

  /// A copy of the slot's instance as `Any`, opened with `layout`'s type.
  @inlinable
  package func load(_ layout: _ValueLayout) -> Any { unsafe layout.load(from: address) }

  /// The slot's instance, one class reference (`layout.isReference`), without opening its type.
  @inlinable
  package func loadReference() -> AnyObject { unsafe address.load(as: AnyObject.self) }

  /// Runs `body` with a slot over a copy of `value`, for an engine structure to copy from.
  @inlinable @inline(__always)
  package static func lending<T, R>(_ value: T, _ body: (borrowing _InstanceSlot) -> R) -> R {
    var value = value
    return unsafe _withUnprotectedUnsafeMutablePointer(to: &value) { pointer in
      unsafe body(_InstanceSlot(address: UnsafeMutableRawPointer(pointer), of: T.self))
    }
  }

  /// Copies the instance's bits into `storage` without copying (retaining) what they refer to:
  /// for a transient binding, whose bits are never destroyed.
  @inlinable
  package func copyBits(into storage: borrowing _InstanceStorage, _ layout: _ValueLayout) {
    unsafe storage.address.unsafelyUnwrapped.copyMemory(from: address, byteCount: layout.size)
  }

  /// Copies the bits `storage` holds into the slot, handing over the reference a weak load
  /// took (`object`) instead of retaining again: the transient fast path.
  @inlinable
  package func takeBits(
    of storage: borrowing _InstanceStorage, _ layout: _ValueLayout, handingOver object: AnyObject
  ) {
    #if JOINERY_INTERNAL_CHECKS
      _internalCheck(
        checkedType == layout.type, "takeBits of \(layout.type) on a slot for \(checkedType)")
    #endif
    let bits = unsafe storage.address.unsafelyUnwrapped
    if layout.size == MemoryLayout<UInt>.size {
      unsafe address.storeBytes(of: bits.load(as: UInt.self), as: UInt.self)
    } else {
      unsafe address.copyMemory(from: bits, byteCount: layout.size)
    }
    _ = unsafe Unmanaged.passRetained(object)
  }
}

/// Memory a binding keeps one instance in, allocated on first use: in the binding object's own
/// words when the instance fits there (``_AtomicWordsHolder/_allocate(_:_:inlineAt:)``), else
/// on the heap.
///
/// Whether it holds an
/// initialized instance is the binding's to track; the binding frees it in its `deinit`.
///
/// With internal checks compiled in, it remembers the type it was allocated for, and its typed
/// operations check that they are given that type (and that it is allocated).
@safe
@frozen
@usableFromInline package struct _InstanceStorage: ~Copyable {
  /// The memory; `nil` until allocated.
  @usableFromInline package var address: UnsafeMutableRawPointer?
  #if JOINERY_INTERNAL_CHECKS
    /// The bound type, set by `allocate`, for the typed operations' checks.
    @usableFromInline package var checkedType: Any.Type?
  #endif

  /// Storage with nothing allocated.
  @inlinable package init() {
    unsafe address = nil
    #if JOINERY_INTERNAL_CHECKS
      checkedType = nil
    #endif
  }

  /// Whether the memory is allocated.
  @inlinable
  package var isAllocated: Bool { unsafe address != nil }

  /// Allocates the memory for `layout` unless it was: the word at `inline`, if given, when an
  /// instance fits in one word, else a heap block.
  @inlinable
  package mutating func allocate(_ layout: _ValueLayout, inline: UnsafeMutableRawPointer? = nil) {
    guard unsafe address == nil else { return }
    if let inline = unsafe inline, layout.size <= MemoryLayout<UInt>.size,
      layout.alignment <= MemoryLayout<UInt>.alignment
    {
      unsafe address = inline
    } else {
      unsafe address = .allocate(byteCount: layout.size, alignment: layout.alignment)
    }
    #if JOINERY_INTERNAL_CHECKS
      checkedType = layout.type
    #endif
  }

  /// Checks that the memory is allocated for `T` (internal checks only).
  @inlinable @inline(__always)
  package func checkType<T>(_: T.Type, _ operation: StaticString) {
    #if JOINERY_INTERNAL_CHECKS
      unsafe _internalCheck(
        address != nil && checkedType == T.self,
        "\(operation) as \(T.self) on storage for \(checkedType.map { "\($0)" } ?? "nothing")")
    #endif
  }

  /// The instance, as the `T` it was stored as.
  @inlinable @inline(__always)
  package func load<T>(as _: T.Type) -> T {
    checkType(T.self, "load")
    return unsafe address.unsafelyUnwrapped.load(as: T.self)
  }

  /// Initializes the (allocated) memory with `value`.
  @inlinable
  package func initialize<T>(to value: T) {
    checkType(T.self, "initialize")
    unsafe address.unsafelyUnwrapped.initializeMemory(as: T.self, to: value)
  }

  /// Initializes the (allocated) memory with `value` if it holds an instance of the bound type;
  /// returns whether it did.
  @inlinable
  package func initialize(fromAny value: Any, _ layout: _ValueLayout) -> Bool {
    unsafe layout.initialize(address.unsafelyUnwrapped, from: value)
  }

  /// The instance held, as `Any`.
  @inlinable
  package func loadAny(_ layout: _ValueLayout) -> Any {
    unsafe layout.load(from: address.unsafelyUnwrapped)
  }

  /// A slot over the (allocated) memory, for a factory to build the instance into.
  @inlinable
  package func slot(_ layout: _ValueLayout) -> _InstanceSlot {
    unsafe layout.slot(at: address.unsafelyUnwrapped)
  }

  /// Deinitializes the instance held.
  @inlinable
  package func destroy(_ layout: _ValueLayout) { unsafe layout.destroy(address.unsafelyUnwrapped) }

  /// Frees the memory (the instance, if any, must be destroyed first); the word at `inline`, the
  /// one ``allocate(_:inline:)`` may have used, is not freed.
  @inlinable
  package mutating func deallocate(inline: UnsafeMutableRawPointer? = nil) {
    if unsafe address != inline { unsafe address?.deallocate() }
    unsafe address = nil
  }
}

extension _AtomicWordsHolder {
  /// Allocates `storage` for `layout` unless it was: in this holder's word `index` (declared as
  /// a stored property there and checked with ``_checkAtomicWordsLayout(_:at:)``) when an
  /// instance fits in one word, as a class instance does, else on the heap.
  ///
  /// The word saves a heap allocation and its release for most shared instances: a scope's
  /// scoped instances, every persistent class instance. An object never moves, so the address
  /// stays good for the holder's life. One word, not more: persistent and scoped services are
  /// mostly classes, and every binding pays for the word.
  @inlinable
  package func _allocate(
    _ storage: inout _InstanceStorage, _ layout: _ValueLayout, inlineAt index: Int
  ) {
    unsafe storage.allocate(layout, inline: UnsafeMutableRawPointer(_atomicWord(index)))
  }

  /// Frees `storage`, allocated with ``_allocate(_:_:inlineAt:)`` (the instance, if any, must be
  /// destroyed first).
  @inlinable
  package func _deallocate(_ storage: inout _InstanceStorage, inlineAt index: Int) {
    unsafe storage.deallocate(inline: UnsafeMutableRawPointer(_atomicWord(index)))
  }
}

/// Whether an instance of `T` is one class reference, copied by a retain.
///
/// That is a class, or a class-bound existential without witness tables. Specialized, the
/// compiler answers (`_canBeClass` is 1 for a class or `AnyObject`, 0 for a value type or an
/// existential with witness tables), without even asking for `T`'s metadata; unspecialized, a
/// cast of the metatype answers.
@inlinable @inline(__always)
package func _isSingleReference<T>(_: T.Type) -> Bool {
  _isSingleReference(
    T.self,
    recorded: MemoryLayout<T>.size == MemoryLayout<AnyObject>.size && T.self is AnyObject.Type)
}

/// Whether an instance of `T` is one class reference, as ``_isSingleReference(_:)`` says.
///
/// Where the compiler cannot answer (unspecialized code), `recorded` answers: the answer kept
/// with a layout of `T` (``_ValueLayout/isReference``), so no metadata is read and no cast runs.
/// Specialized, `recorded` is not read.
@inlinable @inline(__always)
package func _isSingleReference<T>(_: T.Type, recorded: Bool) -> Bool {
  switch _canBeClass(T.self) {
  case 0: return false
  case 1: return MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
  default: return recorded
  }
}

/// Destroys the instance a slot was initialized with, after the slot's lending has ended: kept
/// by a resolution whose `initCompleted` steps may still fail.
@safe
@usableFromInline package struct _InstanceCleanup: ~Copyable {
  @usableFromInline let address: UnsafeMutableRawPointer
  @usableFromInline let layout: _ValueLayout

  @inlinable
  init(address: UnsafeMutableRawPointer, layout: _ValueLayout) {
    unsafe self.address = unsafe address
    self.layout = layout
  }

  /// Deinitializes the instance; the cleanup is used up.
  @inlinable
  package consuming func destroy() { unsafe layout.destroy(address) }
}

/// One request's runtime arguments: a tuple of exactly the bound argument types.
@safe
@frozen
@usableFromInline package struct _Arguments: ~Copyable {
  /// The tuple's memory.
  @usableFromInline package let address: UnsafeRawPointer

  /// Arguments at `address`.
  @inlinable package init(address: UnsafeRawPointer) { unsafe self.address = unsafe address }

  /// What a binding without runtime arguments is given: an address never read.
  @inlinable package static var none: _Arguments {
    unsafe _Arguments(
      address: UnsafeRawPointer(bitPattern: MemoryLayout<UInt>.alignment).unsafelyUnwrapped)
  }

  /// Runs `body` with `values` (a tuple of a request's arguments) as arguments.
  @inlinable @inline(__always)
  package static func with<Tuple, R, E: Error>(
    _ values: Tuple, _ body: (borrowing _Arguments) throws(E) -> R
  ) throws(E) -> R {
    unsafe try _withUnprotectedUnsafePointer(to: values) { pointer throws(E) -> R in
      unsafe try body(_Arguments(address: UnsafeRawPointer(pointer)))
    }
  }

  /// The arguments, as the tuple type they were bound with.
  @inlinable @inline(__always)
  package func load<Tuple>(as _: Tuple.Type) -> Tuple { unsafe address.load(as: Tuple.self) }
}

/// Reads a request's runtime arguments one at a time, at the offsets of their tuple's layout:
/// what an assisted binding passes to the leading parameters of its initializer.
@safe
@usableFromInline
package struct _ArgumentCursor: ~Copyable {
  @usableFromInline let address: UnsafeRawPointer
  /// The offset of each argument in the tuple, in order.
  @usableFromInline let offsets: [Int]
  @usableFromInline var index = 0

  /// A cursor over `arguments`, a tuple whose elements start at `offsets`.
  @inlinable
  package init(_ arguments: borrowing _Arguments, offsets: [Int]) {
    unsafe address = arguments.address
    self.offsets = offsets
  }

  /// The next argument, copied, as the type the caller knows it has; `nil` once every argument
  /// was read.
  @inlinable
  package mutating func next<T>(_: T.Type) -> T? {
    guard index < offsets.count else { return nil }
    defer { index += 1 }
    return unsafe address.load(fromByteOffset: offsets[index], as: T.self)
  }

  /// The offsets of the elements of a tuple of the given sizes and alignments: each element
  /// starts at the first offset after the previous one that its alignment allows, as Swift lays
  /// out a tuple.
  package static func offsets(of elements: [(size: Int, alignment: Int)]) -> [Int] {
    var offsets: [Int] = []
    var end = 0
    for element in elements {
      let offset = (end + element.alignment - 1) / element.alignment * element.alignment
      offsets.append(offset)
      end = offset + element.size
    }
    return offsets
  }
}

/// Memory for one instance of a type known only at run time, as `verify()` needs.
@inlinable
package func _withTemporaryInstance<R>(
  _ layout: _ValueLayout, _ body: (borrowing _InstanceSlot) throws -> R
) rethrows -> R {
  let memory = UnsafeMutableRawPointer.allocate(byteCount: layout.size, alignment: layout.alignment)
  defer { unsafe memory.deallocate() }
  return unsafe try body(layout.slot(at: memory))
}

/// What the container needs to hold instances of a type it does not know statically: its size
/// and alignment, the type itself (opened when an instance must be destroyed or boxed outside
/// a generic call: resets, graph scopes, `verify()`, never the fast path), and a copier made
/// while the type was known. (Unchecked `Sendable`: the copier is immutable and captures at
/// most the type's metadata.)
@safe
@usableFromInline package struct _ValueLayout: Sendable {
  /// The bound type.
  @usableFromInline package let type: Any.Type
  // Packed beside `type`: every binding keeps a layout.
  @usableFromInline let storedSize: UInt32
  @usableFromInline let storedAlignment: UInt16
  /// Whether an instance is one class reference (the bound type is a class): it is then
  /// copied by a retain and destroyed by a release, without opening `type`.
  @usableFromInline package let isReference: Bool
  /// Copies an instance: made once, with the binding, so that a slot for it allocates nothing
  /// (a closure made per slot would need a context holding `type` wherever the code making
  /// the slot is not specialized for it).
  @usableFromInline package let copier: _Copier

  /// The size of an instance, at least 1.
  @inlinable
  package var size: Int { Int(storedSize) }
  /// The alignment of an instance.
  @inlinable
  package var alignment: Int { Int(storedAlignment) }

  /// The layout of `type`.
  @inlinable
  package init<T>(of type: T.Type) {
    storedSize = UInt32(Swift.max(MemoryLayout<T>.size, 1))
    storedAlignment = UInt16(MemoryLayout<T>.alignment)
    isReference = _isSingleReference(T.self)
    self.type = T.self
    if isReference {
      unsafe copier = unsafe _InstanceSlot.referenceCopier
    } else {
      unsafe copier = { source, destination in
        unsafe destination.initializeMemory(as: T.self, to: source.load(as: T.self))
      }
    }
  }

  /// A slot for an instance of this type at `address`, with the layout's copier: making it
  /// allocates nothing.
  @inlinable
  package func slot(at address: UnsafeMutableRawPointer) -> _InstanceSlot {
    guard isReference else {
      return unsafe _InstanceSlot(address: address, copier: copier, type: type)
    }
    return unsafe _InstanceSlot(reference: address, type: type)
  }

  /// Deinitializes an instance in place.
  @inlinable
  package func destroy(_ instance: UnsafeMutableRawPointer) {
    func destroy<T>(_: T.Type) {
      unsafe instance.assumingMemoryBound(to: T.self).deinitialize(count: 1)
    }
    _openExistential(type, do: destroy)
  }

  /// The object an instance holds, or `nil` for a value; and the instance's dynamic type.
  @inlinable
  package func object(in instance: UnsafeRawPointer) -> (AnyObject?, Any.Type) {
    func object<T>(_: T.Type) -> (AnyObject?, Any.Type) {
      let value = unsafe instance.load(as: T.self)
      let dynamicType = Swift.type(of: value as Any)
      return (dynamicType is AnyObject.Type ? value as AnyObject : nil, dynamicType)
    }
    return _openExistential(type, do: object)
  }

  /// Initializes an instance at `destination` from `value` if it holds one of the bound type;
  /// returns whether it did.
  @inlinable
  package func initialize(_ destination: UnsafeMutableRawPointer, from value: Any) -> Bool {
    func initialize<T>(_: T.Type) -> Bool {
      guard let value = value as? T else { return false }
      unsafe destination.initializeMemory(as: T.self, to: value)
      return true
    }
    return _openExistential(type, do: initialize)
  }

  /// A copy of the instance at `source`, as `Any`.
  @inlinable
  package func load(from source: UnsafeRawPointer) -> Any {
    func load<T>(_: T.Type) -> Any { unsafe source.load(as: T.self) }
    return _openExistential(type, do: load)
  }

}

// MARK: Atomic words: the ready flags, gates and locks of instance homes

/// A class whose first stored property is a run of `UInt` words that are read and written only
/// atomically, through the methods below: the engine's flags, thread identities and lazily made
/// locks, without `Synchronization.Atomic` (which needs macOS 15 / iOS 18).
///
/// The words are found as the swift-atomics package finds its managed atomics: at the start of
/// the instance's stored properties (`_getUnsafePointerToStoredProperties`). A root class lays
/// its stored properties out in declaration order, so the conforming root class must declare
/// the words first; ``_checkAtomicWordsLayout(_:at:)`` verifies it in debug builds. Subclasses add
/// their properties after them.
@usableFromInline package protocol _AtomicWordsHolder: AnyObject {}

extension _AtomicWordsHolder {
  /// The address of word `index`.
  @inlinable @inline(__always)
  package func _atomicWord(_ index: Int) -> UnsafeMutablePointer<UInt> {
    unsafe _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: UInt.self) + index
  }

  /// Reads word `index`; later reads of memory published with it see what was written before.
  @inlinable @inline(__always)
  package func _loadAcquiring(_ index: Int) -> UInt {
    unsafe joinery_load_acquire(_atomicWord(index))
  }

  /// Reads word `index`, ordering nothing else.
  @inlinable @inline(__always)
  package func _loadRelaxed(_ index: Int) -> UInt {
    unsafe joinery_load_relaxed(_atomicWord(index))
  }

  /// Writes word `index`, publishing every write made before it.
  @inlinable @inline(__always)
  package func _storeReleasing(_ index: Int, _ value: UInt) {
    unsafe joinery_store_release(_atomicWord(index), value)
  }

  /// Writes word `index`, ordering nothing else.
  @inlinable @inline(__always)
  package func _storeRelaxed(_ index: Int, _ value: UInt) {
    unsafe joinery_store_relaxed(_atomicWord(index), value)
  }

  /// Adds `delta` to word `index` (acquiring and releasing) and returns the new value.
  @inlinable @inline(__always)
  package func _add(_ index: Int, _ delta: UInt) -> UInt {
    unsafe joinery_add(_atomicWord(index), delta)
  }

  /// Sets the bits of `mask` in word `index`, publishing every write made before it.
  @inlinable @inline(__always)
  package func _setReleasing(_ index: Int, _ mask: UInt) {
    unsafe joinery_or_release(_atomicWord(index), mask)
  }

  /// The lock whose address word `index` holds above its low four bits (which stay free for
  /// flags), made by the first caller: never more than one.
  @inlinable
  package func _lazyLock(_ index: Int) -> _Lock {
    let word = unsafe _atomicWord(index)
    var current = unsafe joinery_load_acquire(word)
    if let existing = unsafe UnsafeRawPointer(bitPattern: current & ~15) {
      return unsafe Unmanaged<_Lock>.fromOpaque(existing).takeUnretainedValue()
    }
    let made = _Lock.make()
    let bits = unsafe UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
    assert(bits & 15 == 0, "objects are 16-byte aligned")
    while true {
      if unsafe joinery_compare_exchange(word, current, current | bits) { return made }
      current = unsafe joinery_load_acquire(word)
      if let existing = unsafe UnsafeRawPointer(bitPattern: current & ~15) {
        unsafe Unmanaged<_Lock>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
          .release()
        return unsafe Unmanaged<_Lock>.fromOpaque(existing).takeUnretainedValue()
      }
    }
  }

  /// The lock in word `index`, if one was made.
  @inlinable
  package func _existingLock(_ index: Int) -> _Lock? {
    unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index)) & ~15).map {
      unsafe Unmanaged<_Lock>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Releases the lock in word `index`, if one was made: from the holder's `deinit`.
  @inlinable
  package func _releaseLazyLock(_ index: Int) {
    if let existing = unsafe UnsafeRawPointer(
      bitPattern: joinery_load_acquire(_atomicWord(index)) & ~15)
    {
      unsafe Unmanaged<_Lock>.fromOpaque(existing).release()
    }
  }

  /// The object word `index` holds, made by `make` for the first caller: never more than one.
  ///
  /// A loser of the race releases its own. The word holds the whole address, no flags.
  @inlinable
  package func _lazyObject<T: AnyObject>(_ index: Int, make: () -> T) -> T {
    let word = unsafe _atomicWord(index)
    if let existing = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(word)) {
      return unsafe Unmanaged<T>.fromOpaque(existing).takeUnretainedValue()
    }
    let made = unsafe Unmanaged.passRetained(make())
    if unsafe joinery_compare_exchange(word, 0, UInt(bitPattern: made.toOpaque())) {
      return unsafe made.takeUnretainedValue()
    }
    unsafe made.release()
    let existing = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(word)).unsafelyUnwrapped
    return unsafe Unmanaged<T>.fromOpaque(existing).takeUnretainedValue()
  }

  /// The object in word `index`, if one was made.
  @inlinable
  package func _existingLazyObject<T: AnyObject>(_ index: Int, as _: T.Type) -> T? {
    guard
      let existing = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index)))
    else { return nil }
    return unsafe Unmanaged<T>.fromOpaque(existing).takeUnretainedValue()
  }

  /// Releases the object in word `index`, if one was made: from the holder's `deinit`.
  @inlinable
  package func _releaseLazyObject<T: AnyObject>(_ index: Int, as _: T.Type) {
    if let existing = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index)))
    {
      unsafe Unmanaged<T>.fromOpaque(existing).release()
    }
  }

  /// Checks, in debug builds, that `words` (the holder's first stored property) is where the
  /// methods above look.
  ///
  /// Inlinable, so that it is specialized and, outside debug builds, compiles to nothing: a
  /// generic call here cost every binding a container builds 207 instructions (release).
  @inlinable
  package func _checkAtomicWordsLayout<Words>(_ words: inout Words, at index: Int = 0) {
    unsafe withUnsafeMutablePointer(to: &words) { words in
      unsafe assert(
        UnsafeMutableRawPointer(words) == UnsafeMutableRawPointer(_atomicWord(index)),
        "\(Self.self) must declare its words \(index == 0 ? "first" : "at word \(index)")")
    }
  }
}

/// Moves the `T` at `instance` out, leaving the memory uninitialized.
@inlinable @inline(__always)
func _move<T>(from instance: UnsafeMutableRawPointer, as _: T.Type) -> T {
  unsafe instance.assumingMemoryBound(to: T.self).move()
}

/// Building an instance into memory the engine provides: the one way a resolve makes the
/// value it returns.
///
/// Transparent in a debug build, as the chain's functions are: every resolution level passes
/// through one of these, and a separate, unspecialized frame with a generic error type would
/// cost each level stack space there.
extension _InstanceSlot {
  /// A `T` initialized by `initialize` through a slot over memory it is given: a fixed stack
  /// buffer when `T` fits (class references and protocol existentials do), else a temporary
  /// allocation.
  ///
  /// Unlike `withUnsafeTemporaryAllocation`, the buffer asks the runtime for no generic
  /// metadata where the call is not specialized (an autowired initializer's parameter pack).
  /// The slot's copier is `layout`'s, the bound type's: a closure made here for `T` would
  /// allocate a context where this code is not specialized (for a class reference, it is a
  /// retain that captures nothing, and the test folds away where it is).
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  package static func building<T, E: Error>(
    _: T.Type, layout: _ValueLayout, _ initialize: (borrowing _InstanceSlot) throws(E) -> Void
  ) throws(E) -> T {
    guard
      MemoryLayout<T>.size <= MemoryLayout<_InstanceBuffer>.size,
      MemoryLayout<T>.alignment <= MemoryLayout<_InstanceBuffer>.alignment
    else {
      return try buildingLarge(T.self, layout: layout, initialize)
    }
    // Stack-protected, unlike the frames: `_withUnprotectedUnsafeMutablePointer` returning `T`
    // is a generic call with a closure context where this code is not specialized (`Provider`,
    // `Lazy`), 64 instructions a resolve more there, against 6 saved where it is.
    var space = _InstanceBuffer()
    try initialize(unsafe slot(at: &space, of: T.self, layout: layout))
    return unsafe _move(from: &space, as: T.self)
  }

  /// ``building(_:layout:_:)`` for a type larger than ``_InstanceBuffer``: out of line, so that
  /// the metadata `withUnsafeTemporaryAllocation` asks for is never requested on the common
  /// path.
  @usableFromInline @inline(never)
  static func buildingLarge<T, E: Error>(
    _: T.Type, layout: _ValueLayout, _ initialize: (borrowing _InstanceSlot) throws(E) -> Void
  ) throws(E) -> T {
    try unsafe withUnsafeTemporaryAllocation(of: T.self, capacity: 1) {
      buffer throws(E) -> T in
      let out = unsafe buffer.baseAddress.unsafelyUnwrapped
      try initialize(unsafe slot(at: UnsafeMutableRawPointer(out), of: T.self, layout: layout))
      return unsafe out.move()
    }
  }

  /// The bits of a +1 reference to the object `initialize` puts in a slot for `type`, which is
  /// one class reference: not generic, so one copy serves every class.
  ///
  /// Take the object with ``takeReference(_:as:)``.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  package static func buildingReference<E: Error>(
    type: Any.Type, _ initialize: (borrowing _InstanceSlot) throws(E) -> Void
  ) throws(E) -> UInt {
    var word: UInt = 0
    try unsafe _withUnprotectedUnsafeMutablePointer(to: &word) { pointer throws(E) in
      try initialize(unsafe _InstanceSlot(reference: UnsafeMutableRawPointer(pointer), type: type))
    }
    return word
  }

  /// The object whose +1 reference `bits` are (``buildingReference(type:_:)``), as `T`, its
  /// bound type: moved, not copied. (Where the caller is not specialized, a bit-cast of an
  /// `AnyObject` copies through the value witness, one retain and one release more.)
  @inlinable @inline(__always)
  package static func takeReference<T>(_ bits: UInt, as _: T.Type) -> T {
    var bits = bits
    return unsafe _move(from: &bits, as: T.self)
  }

  /// A slot at `address` for an instance of `T`, with `layout`'s copier unless `T` is one class
  /// reference.
  @inlinable @inline(__always)
  static func slot<T>(
    at address: UnsafeMutableRawPointer, of _: T.Type, layout: _ValueLayout
  ) -> _InstanceSlot {
    if _isSingleReference(T.self) { return unsafe _InstanceSlot(reference: address, type: T.self) }
    return unsafe layout.slot(at: address)
  }
}
