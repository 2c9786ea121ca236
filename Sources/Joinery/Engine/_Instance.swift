internal import JoineryEngine

/// Memory for instances of types the engine does not know statically.
///
/// Bindings are not generic: the bound type is known only to the closures made when it was
/// declared and to the generic resolve call. So instances travel as raw memory plus a
/// ``ValueLayout``, and everything that touches that memory is here. The rest of the module
/// sees ``_InstanceSlot`` (where one request's instance goes), ``_InstanceStorage`` (where a
/// binding keeps one) and ``_Arguments`` (a request's runtime arguments), never an address.

/// Builds an instance of the bound type into the slot, from a resolver and the request's
/// runtime arguments (``_Arguments/none`` for a binding that takes none, which never reads them).
@usableFromInline typealias Maker =
  @Sendable (borrowing Resolver, borrowing _Arguments, borrowing _InstanceSlot) throws -> Void

/// Copies an instance of the bound type from the first address to the second (uninitialized).
@usableFromInline typealias _Copier = (UnsafeRawPointer, UnsafeMutableRawPointer) -> Void

/// Uninitialized memory, on the caller's stack, for one instance that fits: a class reference,
/// a protocol existential (five words) and most small structs.
@usableFromInline @frozen
struct _InstanceBuffer {
  @usableFromInline var words: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
  @inlinable init() {}
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
@usableFromInline @frozen
struct _InstanceSlot: ~Copyable {
  @usableFromInline let address: UnsafeMutableRawPointer
  @usableFromInline let copier: _Copier
  #if JOINERY_INTERNAL_CHECKS
    /// The bound type, for the typed operations' checks.
    @usableFromInline let checkedType: Any.Type
  #endif

  /// A slot for an instance of `type` whose copier copies it.
  @inlinable
  init(address: UnsafeMutableRawPointer, copier: @escaping _Copier, type: Any.Type) {
    self.address = address
    self.copier = copier
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
  init<T>(address: UnsafeMutableRawPointer, of _: T.Type) {
    self.address = address
    if _isSingleReference(T.self) {
      copier = Self.referenceCopier
    } else {
      copier = { source, destination in
        destination.initializeMemory(as: T.self, to: source.load(as: T.self))
      }
    }
    #if JOINERY_INTERNAL_CHECKS
      checkedType = T.self
    #endif
  }

  /// A slot for an instance of `type`, which is one class reference (``_isSingleReference(_:)``).
  @inlinable @inline(__always)
  init(reference address: UnsafeMutableRawPointer, type: Any.Type) {
    self.init(address: address, copier: Self.referenceCopier, type: type)
  }

  /// Copies one class reference (a retain), capturing nothing.
  @inlinable
  static var referenceCopier: _Copier {
    { source, destination in
      destination.initializeMemory(as: AnyObject.self, to: source.load(as: AnyObject.self))
    }
  }

  /// Checks that `T` is the type the slot was made for (internal checks only).
  @inlinable @inline(__always)
  func checkType<T>(_: T.Type, _ operation: StaticString) {
    #if JOINERY_INTERNAL_CHECKS
      _internalCheck(
        checkedType == T.self,
        "\(operation) as \(T.self) on a slot for \(checkedType)")
    #endif
  }

  /// Initializes the slot with `value`; `T` is the bound type.
  @inlinable @inline(__always)
  func initialize<T>(to value: consuming T) {
    checkType(T.self, "initialize")
    address.initializeMemory(as: T.self, to: value)
  }

  /// Initializes the slot with a copy of the instance `storage` holds.
  @inline(__always)
  func initialize(copying storage: _InstanceStorage) {
    copier(UnsafeRawPointer(storage.address.unsafelyUnwrapped), address)
  }

  /// Initializes `storage` (allocated, uninitialized) with a copy of the slot's instance.
  @inline(__always)
  func copy(into storage: _InstanceStorage) {
    copier(UnsafeRawPointer(address), storage.address.unsafelyUnwrapped)
  }

  /// The slot's instance as `T`, moved out (the slot is uninitialized afterwards).
  func take<T>(as _: T.Type) -> T {
    checkType(T.self, "take")
    return address.assumingMemoryBound(to: T.self).move()
  }

  /// The slot's instance as `T`, copied.
  func load<T>(as _: T.Type) -> T {
    checkType(T.self, "load")
    return address.load(as: T.self)
  }

  /// Deinitializes the slot's instance.
  func destroy(_ layout: ValueLayout) { layout.destroy(address) }

  /// What destroys the slot's instance later, if a step after the slot's own use fails.
  func cleanup(_ layout: ValueLayout) -> _InstanceCleanup {
    _InstanceCleanup(address: address, layout: layout)
  }

  /// The object the slot's instance holds, or `nil` for a value; and its dynamic type.
  func object(_ layout: ValueLayout) -> (AnyObject?, Any.Type) { layout.object(in: address) }

  /// Copies the instance's bits into `storage` without copying (retaining) what they refer to:
  /// for a transient binding, whose bits are never destroyed.
  func copyBits(into storage: _InstanceStorage, _ layout: ValueLayout) {
    storage.address.unsafelyUnwrapped.copyMemory(from: address, byteCount: layout.size)
  }

  /// Copies the bits `storage` holds into the slot, handing over the reference a weak load
  /// took (`object`) instead of retaining again: the transient fast path.
  func takeBits(of storage: _InstanceStorage, _ layout: ValueLayout, handingOver object: AnyObject)
  {
    #if JOINERY_INTERNAL_CHECKS
      _internalCheck(
        checkedType == layout.type, "takeBits of \(layout.type) on a slot for \(checkedType)")
    #endif
    let bits = storage.address.unsafelyUnwrapped
    if layout.size == MemoryLayout<UInt>.size {
      address.storeBytes(of: bits.load(as: UInt.self), as: UInt.self)
    } else {
      address.copyMemory(from: bits, byteCount: layout.size)
    }
    _ = Unmanaged.passRetained(object)
  }
}

/// Memory a binding keeps one instance in, allocated on first use.
///
/// Whether it holds an
/// initialized instance is the binding's to track; the binding frees it in its `deinit`.
///
/// With internal checks compiled in, it remembers the type it was allocated for, and its typed
/// operations check that they are given that type (and that it is allocated).
@usableFromInline @frozen
struct _InstanceStorage {
  @usableFromInline var address: UnsafeMutableRawPointer?
  #if JOINERY_INTERNAL_CHECKS
    /// The bound type, set by `allocate`, for the typed operations' checks.
    @usableFromInline var checkedType: Any.Type?
  #endif

  @inlinable init() {
    address = nil
    #if JOINERY_INTERNAL_CHECKS
      checkedType = nil
    #endif
  }

  var isAllocated: Bool { address != nil }

  /// Allocates the memory for `layout` unless it was.
  mutating func allocate(_ layout: ValueLayout) {
    if address == nil {
      address = .allocate(byteCount: layout.size, alignment: layout.alignment)
      #if JOINERY_INTERNAL_CHECKS
        checkedType = layout.type
      #endif
    }
  }

  /// Checks that the memory is allocated for `T` (internal checks only).
  @inlinable @inline(__always)
  func checkType<T>(_: T.Type, _ operation: StaticString) {
    #if JOINERY_INTERNAL_CHECKS
      _internalCheck(
        address != nil && checkedType == T.self,
        "\(operation) as \(T.self) on storage for \(checkedType.map { "\($0)" } ?? "nothing")")
    #endif
  }

  /// The instance, as the `T` it was stored as.
  @inlinable @inline(__always)
  func load<T>(as _: T.Type) -> T {
    checkType(T.self, "load")
    return address.unsafelyUnwrapped.load(as: T.self)
  }

  /// Initializes the (allocated) memory with `value`.
  func initialize<T>(to value: T) {
    checkType(T.self, "initialize")
    address.unsafelyUnwrapped.initializeMemory(as: T.self, to: value)
  }

  /// Initializes the (allocated) memory with `value`, which holds an instance of the bound type.
  func initialize(fromAny value: Any, _ layout: ValueLayout) {
    layout.initialize(address.unsafelyUnwrapped, from: value)
  }

  /// The instance held, as `Any`.
  func loadAny(_ layout: ValueLayout) -> Any { layout.load(from: address.unsafelyUnwrapped) }

  /// A slot over the (allocated) memory, for a factory to build the instance into.
  func slot(_ layout: ValueLayout) -> _InstanceSlot {
    layout.slot(at: address.unsafelyUnwrapped)
  }

  /// Deinitializes the instance held.
  func destroy(_ layout: ValueLayout) { layout.destroy(address.unsafelyUnwrapped) }

  /// Frees the memory (the instance, if any, must be destroyed first).
  mutating func deallocate() {
    address?.deallocate()
    address = nil
  }
}

/// Whether an instance of `T` is one class reference, copied by a retain.
///
/// That is a class, or a class-bound existential without witness tables. Specialized, the
/// compiler answers (`_canBeClass` is 1 for a class or `AnyObject`, 0 for a value type or an
/// existential with witness tables), without even asking for `T`'s metadata; unspecialized, a
/// cast of the metatype answers.
@inlinable @inline(__always)
func _isSingleReference<T>(_: T.Type) -> Bool {
  guard MemoryLayout<T>.size == MemoryLayout<AnyObject>.size else { return false }
  switch _canBeClass(T.self) {
  case 0: return false
  case 1: return true
  default: return T.self is AnyObject.Type
  }
}

/// Destroys the instance a slot was initialized with, after the slot's lending has ended: kept
/// by a resolution whose `initCompleted` steps may still fail.
struct _InstanceCleanup {
  let address: UnsafeMutableRawPointer
  let layout: ValueLayout

  /// Deinitializes the instance.
  func destroy() { layout.destroy(address) }
}

/// One request's runtime arguments: a tuple of exactly the bound argument types.
@usableFromInline @frozen
struct _Arguments: ~Copyable {
  @usableFromInline let address: UnsafeRawPointer

  @inlinable init(address: UnsafeRawPointer) { self.address = address }

  /// What a binding without runtime arguments is given: an address never read.
  @inlinable static var none: _Arguments {
    _Arguments(
      address: UnsafeRawPointer(bitPattern: MemoryLayout<UInt>.alignment).unsafelyUnwrapped)
  }

  /// Runs `body` with `values` (a tuple of a request's arguments) as arguments.
  @inlinable @inline(__always)
  static func with<Tuple, R>(
    _ values: Tuple, _ body: (borrowing _Arguments) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try withUnsafePointer(to: values) { pointer throws(ResolutionError) -> R in
      try body(_Arguments(address: UnsafeRawPointer(pointer)))
    }
  }

  /// The arguments, as the tuple type they were bound with.
  @inlinable @inline(__always)
  func load<Tuple>(as _: Tuple.Type) -> Tuple { address.load(as: Tuple.self) }
}

/// Memory for one instance of a type known only at run time, as `verify()` needs.
func withTemporaryInstance<R>(
  _ layout: ValueLayout, _ body: (borrowing _InstanceSlot) throws -> R
) rethrows -> R {
  let memory = UnsafeMutableRawPointer.allocate(byteCount: layout.size, alignment: layout.alignment)
  defer { memory.deallocate() }
  return try body(layout.slot(at: memory))
}

extension AnyBinding {
  /// A slot at `address` for an instance of the bound type, with the copier made at bind time:
  /// for requests whose code is not specialized for the type, where a slot made from the type
  /// would allocate its copier's context.
  @usableFromInline
  func slot(at address: UnsafeMutableRawPointer) -> _InstanceSlot {
    layout.slot(at: address)
  }
}

/// What the container needs to hold instances of a type it does not know statically: its size
/// and alignment, the type itself (opened when an instance must be destroyed or boxed outside
/// a generic call: resets, graph scopes, `verify()`, never the fast path), and a copier made
/// while the type was known.
// `@unchecked`: the copier is immutable and captures at most the type's metadata.
struct ValueLayout: @unchecked Sendable {
  /// The bound type.
  let type: Any.Type
  // Packed beside `type`: every binding keeps a layout.
  private let storedSize: UInt32
  private let storedAlignment: UInt16
  /// Whether an instance is one class reference (the bound type is a class): it is then
  /// copied by a retain and destroyed by a release, without opening `type`.
  let isReference: Bool
  /// Copies an instance: made once, with the binding, so that a slot for it allocates nothing
  /// (a closure made per slot would need a context holding `type` wherever the code making
  /// the slot is not specialized for it).
  let copier: _Copier

  var size: Int { Int(storedSize) }
  var alignment: Int { Int(storedAlignment) }

  init<T>(of type: T.Type) {
    storedSize = UInt32(Swift.max(MemoryLayout<T>.size, 1))
    storedAlignment = UInt16(MemoryLayout<T>.alignment)
    isReference = _isSingleReference(T.self)
    self.type = T.self
    if isReference {
      copier = _InstanceSlot.referenceCopier
    } else {
      copier = { source, destination in
        destination.initializeMemory(as: T.self, to: source.load(as: T.self))
      }
    }
  }

  /// A slot for an instance of this type at `address`, with the layout's copier: making it
  /// allocates nothing.
  func slot(at address: UnsafeMutableRawPointer) -> _InstanceSlot {
    guard isReference else { return _InstanceSlot(address: address, copier: copier, type: type) }
    return _InstanceSlot(reference: address, type: type)
  }

  /// Deinitializes an instance in place.
  func destroy(_ instance: UnsafeMutableRawPointer) {
    func destroy<T>(_: T.Type) { instance.assumingMemoryBound(to: T.self).deinitialize(count: 1) }
    _openExistential(type, do: destroy)
  }

  /// The object an instance holds, or `nil` for a value; and the instance's dynamic type.
  func object(in instance: UnsafeRawPointer) -> (AnyObject?, Any.Type) {
    func object<T>(_: T.Type) -> (AnyObject?, Any.Type) {
      let value = instance.load(as: T.self)
      let dynamicType = Swift.type(of: value as Any)
      return (dynamicType is AnyObject.Type ? value as AnyObject : nil, dynamicType)
    }
    return _openExistential(type, do: object)
  }

  /// Initializes an instance at `destination` from `value`, which holds one of the bound type.
  func initialize(_ destination: UnsafeMutableRawPointer, from value: Any) {
    func initialize<T>(_: T.Type) { destination.initializeMemory(as: T.self, to: value as! T) }
    _openExistential(type, do: initialize)
  }

  /// A copy of the instance at `source`, as `Any`.
  func load(from source: UnsafeRawPointer) -> Any {
    func load<T>(_: T.Type) -> Any { source.load(as: T.self) }
    return _openExistential(type, do: load)
  }

}

/// The tag a request asked with, when the untagged binding served it (a fallback), kept by
/// reference to the caller's value so that the common path allocates nothing.
///
/// It becomes a
/// ``BindingTag`` only when an error report needs it.
@usableFromInline
struct RequestedTag {
  @usableFromInline let value: UnsafeRawPointer
  /// The tag's type; always also `Sendable`, as every tag API requires.
  @usableFromInline let type: any (Hashable & Sendable).Type

  @usableFromInline
  init(value: UnsafeRawPointer, type: any (Hashable & Sendable).Type) {
    self.value = value
    self.type = type
  }

  /// The tag as a value that outlives the request.
  var tag: BindingTag { type.loadTag(from: value) }
}

extension Hashable where Self: Sendable {
  /// Copies the value at `pointer` into a new tag.
  fileprivate static func loadTag(from pointer: UnsafeRawPointer) -> BindingTag {
    BindingTag(box: TagBox(pointer.load(as: Self.self)))
  }
}
