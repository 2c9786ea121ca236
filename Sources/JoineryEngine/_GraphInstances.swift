/// The instances one top-level resolution shares among everything it builds (the `graph`
/// lifetime's), each found by the identity of what made it (an owner: an object address).
///
/// The first ``_GraphScope/capacity`` may live in slots on the resolving call's stack
/// (``withStackSlots(_:)``), so a small graph allocates nothing for them; the rest go to a
/// ``_GraphScope``, made on first use. Storing and finding an instance costs the same with 5 or
/// 50,000 of them, and nothing walks a chain or recurses. Instances never move once stored.
///
/// One resolution owns it, and ``end()`` destroys what it holds, once. (It is copyable only
/// because the resolution's root state that holds it is: Swift 6.3 destroys a non-copyable
/// struct through its value witness table even when every field is trivial, 18 instructions
/// more on a single-object resolve.)
@safe
@usableFromInline package struct _GraphInstances {
  /// Stack slots of the top-level call, or `nil`; slots `0..<stackCount` are initialized.
  @usableFromInline let stackSlots: UnsafeMutablePointer<_GraphSlot>?
  @usableFromInline var stackCount = 0
  /// Where further instances go (all of them when `stackSlots` is `nil`); owned (one retain),
  /// read without reference counting.
  @usableFromInline var spill: Unmanaged<_GraphScope>?

  /// Instances kept in `stackSlots` first (``_GraphScope/capacity`` of them, uninitialized),
  /// if given.
  @inlinable
  package init(stackSlots: UnsafeMutablePointer<_GraphSlot>?) {
    unsafe self.stackSlots = unsafe stackSlots
  }

  /// Runs `body` with ``_GraphScope/capacity`` uninitialized slots on the caller's stack, for
  /// ``init(stackSlots:)``.
  @inlinable @inline(__always)
  package static func withStackSlots<R, E: Error>(
    _ body: (UnsafeMutablePointer<_GraphSlot>) throws(E) -> R
  ) throws(E) -> R {
    // Not stack-protected: only the engine writes these slots, each within bounds.
    unsafe try _withUnprotectedUnsafeTemporaryAllocation(
      of: _GraphSlot.self, capacity: _GraphScope.capacity
    ) { slots throws(E) -> R in unsafe try body(slots.baseAddress.unsafelyUnwrapped) }
  }

  /// Runs `body` with no instances stored, whose first ones are kept on the caller's stack
  /// when `onStack` (``withStackSlots(_:)``), else all in a ``_GraphScope`` made on first use.
  @inlinable @inline(__always)
  package static func making<R, E: Error>(
    onStack: Bool, _ body: (_GraphInstances) throws(E) -> R
  ) throws(E) -> R {
    guard onStack else { return try body(unsafe _GraphInstances(stackSlots: nil)) }
    return try unsafe withStackSlots { slots throws(E) -> R in
      try body(unsafe _GraphInstances(stackSlots: slots))
    }
  }

  /// Whether nothing is stored.
  @inlinable
  package var isEmpty: Bool { unsafe stackCount == 0 && spill == nil }

  /// The instance stored for `owner`, if any.
  @inlinable @inline(__always)
  package func instance(for owner: _Owner) -> UnsafeRawPointer? {
    for index in 0..<stackCount {
      let slot = unsafe stackSlots.unsafelyUnwrapped + index
      if unsafe slot.pointee.owner == owner {
        return unsafe UnsafeRawPointer(slot.pointee.instance)
      }
    }
    guard let spill = unsafe spill else { return nil }
    return unsafe spill._withUnsafeGuaranteedRef { unsafe $0.instance(for: owner) }
  }

  /// Copies the instance stored for `owner` into `slot`, if there is one; returns whether there
  /// was.
  @inlinable @inline(__always)
  package func copyInstance(for owner: _Owner, into slot: borrowing _InstanceSlot) -> Bool {
    guard let existing = unsafe instance(for: owner) else { return false }
    unsafe slot.copier(existing, slot.address)
    return true
  }

  /// Keeps a copy of `slot`'s instance, an instance of `layout`'s type made by `owner`, until
  /// ``end()``.
  ///
  /// An owner stored twice keeps its first instance found.
  @inlinable @inline(__always)
  package mutating func store(
    copyOf slot: borrowing _InstanceSlot, owner: _Owner, layout: borrowing _ValueLayout
  ) {
    if let stackSlots = unsafe stackSlots, stackCount < _GraphScope.capacity {
      unsafe _GraphSlot.initialize(
        stackSlots + stackCount, copyOf: UnsafeRawPointer(slot.address), owner: owner,
        layout: layout, copy: slot.copier)
      stackCount += 1
      return
    }
    unsafe storeInSpill(
      copyOf: UnsafeRawPointer(slot.address), owner: owner, layout: layout, copy: slot.copier)
  }

  @usableFromInline @inline(never)
  mutating func storeInSpill(
    copyOf value: UnsafeRawPointer, owner: _Owner, layout: borrowing _ValueLayout,
    copy: _Copier
  ) {
    let scope: Unmanaged<_GraphScope>
    if let spill = unsafe spill {
      unsafe scope = unsafe spill
    } else {
      unsafe scope = unsafe Unmanaged.passRetained(_GraphScope.make())
      unsafe spill = unsafe scope
    }
    unsafe scope._withUnsafeGuaranteedRef {
      unsafe $0.store(copyOf: value, owner: owner, layout: layout, copy: copy)
    }
  }

  /// Calls `body` with each stored instance's owner and address, in the order they were stored.
  @usableFromInline package func forEachInstance(
    _ body: (_ owner: _Owner, _ instance: UnsafeMutableRawPointer) -> Void
  ) {
    if let stackSlots = unsafe stackSlots {
      for index in 0..<stackCount {
        unsafe body(stackSlots[index].owner, stackSlots[index].instance)
      }
    }
    unsafe spill?._withUnsafeGuaranteedRef {
      unsafe $0.forEachSlot { unsafe body($0.pointee.owner, $0.pointee.instance) }
    }
  }

  /// Calls `body` with each stored instance's owner, of type `Owner`, and a slot over the
  /// instance (with the layout `layout` gives for the owner), in the order they were stored.
  ///
  /// The owners are those of a resolution chain's levels (``_ChainHandle/owner``), which the
  /// resolution keeps alive while it keeps their instances here.
  @inlinable
  package func forEachInstance<Owner: AnyObject>(
    of _: Owner.Type, layout: (Owner) -> _ValueLayout,
    _ body: (Owner, borrowing _InstanceSlot) -> Void
  ) {
    func visit(_ owner: _Owner, _ instance: UnsafeMutableRawPointer) {
      let owner = unsafe owner.object(as: Owner.self)
      unsafe body(owner, layout(owner).slot(at: instance))
    }
    if let stackSlots = unsafe stackSlots {
      for index in 0..<stackCount {
        unsafe visit(stackSlots[index].owner, stackSlots[index].instance)
      }
    }
    unsafe spill?._withUnsafeGuaranteedRef {
      unsafe $0.forEachSlot { unsafe visit($0.pointee.owner, $0.pointee.instance) }
    }
  }

  /// Destroys every stored instance: the resolution ends.
  ///
  /// Called once; nothing is stored or found afterwards.
  @inlinable @inline(__always)
  package func end() {
    unsafe _internalCheck(
      stackSlots == nil ? stackCount == 0 : stackCount <= _GraphScope.capacity,
      "graph slots on the stack overrun")
    if !isEmpty { destroyAll() }
  }

  @usableFromInline @inline(never)
  func destroyAll() {
    if let stackSlots = unsafe stackSlots {
      unsafe _GraphSlot.destroy(stackSlots, count: stackCount)
    }
    unsafe spill?.release()
  }

  /// Checks the contract (see ``_internalCheck(_:_:file:line:)``): the stack slots within
  /// bounds, the spill's contract, and every stored instance found by its owner.
  @usableFromInline package func _checkInvariants() {
    unsafe _internalCheck(
      stackSlots == nil ? stackCount == 0 : stackCount <= _GraphScope.capacity,
      "graph slots on the stack overrun")
    unsafe _internalCheck(
      stackSlots == nil || spill == nil || stackCount == _GraphScope.capacity,
      "a spill before the stack slots are full")
    unsafe spill?._withUnsafeGuaranteedRef { $0._checkInvariants() }
    unsafe forEachInstance { owner, _ in
      unsafe _internalCheck(instance(for: owner) != nil, "an instance not found")
    }
  }
}

/// One `graph` instance: its owner, and the instance, in the slot's own buffer when it fits,
/// else in an allocation of its own.
@safe
@usableFromInline package struct _GraphSlot {
  /// The identity the instance is found by.
  @usableFromInline package var owner: _Owner
  /// 1 when the instance is one class reference (copied by a retain, destroyed by a release),
  /// else its type's metadata address.
  @usableFromInline var typeWord: UInt
  /// Where the instance is: `buffer` when it fits there, else its own allocation.
  @usableFromInline package var instance: UnsafeMutableRawPointer
  @usableFromInline var buffer: _InstanceBuffer

  /// Initializes `slot` with a copy of `value`, the instance `owner` made, of `layout`'s type.
  @inlinable @inline(__always)
  static func initialize(
    _ slot: UnsafeMutablePointer<_GraphSlot>, copyOf value: UnsafeRawPointer,
    owner: _Owner, layout: borrowing _ValueLayout, copy: _Copier
  ) {
    let isReference = layout.isReference
    // Field by field: every field is trivial, and the buffer needs no zeroing.
    unsafe slot.pointee.owner = owner
    unsafe slot.pointee.typeWord =
      unsafe isReference ? 1 : UInt(bitPattern: unsafeBitCast(layout.type, to: Int.self))
    if layout.size <= MemoryLayout<_InstanceBuffer>.size
      && layout.alignment <= MemoryLayout<_InstanceBuffer>.alignment
    {
      unsafe slot.pointee.instance = unsafe withUnsafeMutableBytes(of: &slot.pointee.buffer) {
        unsafe $0.baseAddress.unsafelyUnwrapped
      }
    } else {
      unsafe slot.pointee.instance = .allocate(byteCount: layout.size, alignment: layout.alignment)
    }
    if isReference {
      // A class reference: one retain, no call through the copier.
      let object = unsafe value.load(as: UnsafeRawPointer.self)
      _ = unsafe Unmanaged<AnyObject>.fromOpaque(object).retain()
      unsafe slot.pointee.instance.storeBytes(of: object, as: UnsafeRawPointer.self)
    } else {
      unsafe copy(value, slot.pointee.instance)
    }
  }

  /// Destroys the instances of `count` initialized slots.
  @usableFromInline
  static func destroy(_ slots: UnsafeMutablePointer<_GraphSlot>, count: Int) {
    for index in 0..<count {
      let slot = unsafe slots + index
      let typeWord = unsafe slot.pointee.typeWord
      if typeWord == 1 {
        let object = unsafe slot.pointee.instance.load(as: UnsafeRawPointer.self)
        unsafe Unmanaged<AnyObject>.fromOpaque(object).release()
        continue
      }
      let type = unsafe unsafeBitCast(Int(bitPattern: typeWord), to: Any.Type.self)
      let instance = unsafe slot.pointee.instance
      func destroy<T>(_: T.Type) {
        unsafe instance.assumingMemoryBound(to: T.self).deinitialize(count: 1)
      }
      _openExistential(type, do: destroy)
      if unsafe !isInline(slot) { unsafe instance.deallocate() }
    }
  }

  private static func isInline(_ slot: UnsafeMutablePointer<_GraphSlot>) -> Bool {
    unsafe withUnsafeMutableBytes(of: &slot.pointee.buffer) {
      unsafe $0.baseAddress == slot.pointee.instance
    }
  }
}

/// The `graph` instances of one resolution that do not live on its stack: past the first
/// ``capacity`` when those are on the stack (``_GraphInstances/withStackSlots(_:)``), else all
/// of them.
///
/// One allocation holds ``capacity`` instances inline (when they fit an ``_InstanceBuffer``). A
/// larger graph adds an ``_GraphOverflow``: chunks that double in size, and an index by owner,
/// so storing and finding an instance costs the same with 5 or 50,000 of them.
@usableFromInline package final class _GraphScope: ManagedBuffer<_GraphScope.Header, _GraphSlot> {
  /// How many instances are stored, and the overflow past the inline slots.
  @usableFromInline package struct Header {
    var count = 0
    var overflow: _GraphOverflow?
  }

  /// The number of inline slots (and of stack slots, ``_GraphInstances/withStackSlots(_:)``).
  @inlinable
  package static var capacity: Int { 4 }

  /// An empty scope.
  @usableFromInline package static func make() -> _GraphScope {
    // `create` returns an instance of the class it is called on.
    unsafe unsafeDowncast(create(minimumCapacity: capacity) { _ in Header() }, to: _GraphScope.self)
  }

  deinit {
    unsafe withUnsafeMutablePointers { header, slots in
      unsafe _GraphSlot.destroy(slots, count: header.pointee.count)
      // Slots hold no references of their own, and the header (with the overflow, which
      // destroys its own slots) is a stored property that the base class destroys.
    }
  }

  /// The instance stored for `owner`, if any.
  @usableFromInline package func instance(for owner: _Owner) -> UnsafeRawPointer? {
    unsafe withUnsafeMutablePointers { header, slots in
      if let overflow = unsafe header.pointee.overflow {
        return unsafe overflow.instance(for: owner)
      }
      for index in unsafe 0..<header.pointee.count where unsafe slots[index].owner == owner {
        return unsafe UnsafeRawPointer(slots[index].instance)
      }
      return nil
    }
  }

  /// Keeps a copy of `value`, an instance of `layout`'s type made by `owner`.
  @usableFromInline package func store(
    copyOf value: UnsafeRawPointer, owner: _Owner, layout: borrowing _ValueLayout,
    copy: _Copier
  ) {
    // Everything through the raw pointers: no dynamic exclusivity checks on the header.
    unsafe withUnsafeMutablePointers { header, slots in
      if unsafe header.pointee.count < Self.capacity {
        unsafe _GraphSlot.initialize(
          slots + header.pointee.count, copyOf: value, owner: owner, layout: layout, copy: copy)
        unsafe header.pointee.count += 1
        return
      }
      let overflow: _GraphOverflow
      if let existing = unsafe header.pointee.overflow {
        overflow = existing
      } else {
        overflow = _GraphOverflow()
        for index in unsafe 0..<header.pointee.count { unsafe overflow.index(slots + index) }
        unsafe header.pointee.overflow = overflow
      }
      unsafe overflow.store(copyOf: value, owner: owner, layout: layout, copy: copy)
    }
  }

  /// Checks the contract (see ``_internalCheck(_:_:file:line:)``): the inline slots, then the
  /// overflow's, every instance found by its owner.
  @usableFromInline package func _checkInvariants() {
    let overflow: _GraphOverflow? = unsafe withUnsafeMutablePointers { header, slots in
      unsafe _internalCheck(header.pointee.count <= Self.capacity, "inline slots overrun")
      unsafe _internalCheck(
        header.pointee.overflow == nil || header.pointee.count == Self.capacity,
        "an overflow before the inline slots are full")
      return unsafe header.pointee.overflow
    }
    overflow?._checkInvariants()
    unsafe forEachSlot { slot in
      unsafe _internalCheck(instance(for: slot.pointee.owner) != nil, "an instance not found")
    }
  }

  /// Calls `body` with each initialized slot, in the order they were stored.
  @usableFromInline package func forEachSlot(_ body: (UnsafeMutablePointer<_GraphSlot>) -> Void) {
    let overflow: _GraphOverflow? = unsafe withUnsafeMutablePointers { header, slots in
      for index in unsafe 0..<header.pointee.count { unsafe body(slots + index) }
      return unsafe header.pointee.overflow
    }
    unsafe overflow?.forEachSlot(body)
  }
}

/// The instances of a ``_GraphScope`` past its inline ones, and an index of every instance of
/// the scope by owner.
///
/// Slots live in chunks, each twice the size of the one before, so none ever moves and a graph
/// of `n` instances takes about `log2(n)` allocations. The index is an open-addressing table of
/// owners at most half full, rebuilt twice as large when it would not be.
@safe
@usableFromInline package final class _GraphOverflow {
  @safe
  private struct Entry {
    var owner: _Owner?
    var instance: UnsafeMutableRawPointer?
  }

  private var chunks: [(slots: UnsafeMutablePointer<_GraphSlot>, capacity: Int)] = unsafe []
  /// Initialized slots in the last chunk.
  private var lastCount = 0
  private var entries: UnsafeMutablePointer<Entry>
  private var mask: Int
  private var indexed = 0

  init() {
    mask = 15
    unsafe entries = .allocate(capacity: mask + 1)
    unsafe entries.initialize(repeating: Entry(), count: mask + 1)
  }

  deinit {
    #if JOINERY_INTERNAL_CHECKS
      _checkInvariants()
    #endif
    for unsafe(index, chunk) in unsafe chunks.enumerated() {
      unsafe _GraphSlot.destroy(
        chunk.slots, count: index == chunks.count - 1 ? lastCount : chunk.capacity)
      unsafe chunk.slots.deallocate()
    }
    unsafe entries.deallocate()
  }

  @inline(__always)
  private static func bucket(_ owner: _Owner, mask: Int) -> Int {
    // Object addresses are 16-byte aligned: drop the zero bits, and fold higher ones in.
    let address = owner.bits
    return Int(truncatingIfNeeded: (address &>> 4) ^ (address &>> 13)) & mask
  }

  func instance(for owner: _Owner) -> UnsafeRawPointer? {
    var bucket = Self.bucket(owner, mask: mask)
    while let key = unsafe entries[bucket].owner {
      if key == owner { return unsafe UnsafeRawPointer(entries[bucket].instance) }
      bucket = (bucket &+ 1) & mask
    }
    return nil
  }

  /// Adds `slot`'s instance to the index; an earlier instance of the same owner stays the one
  /// found.
  func index(_ slot: UnsafeMutablePointer<_GraphSlot>) {
    if (indexed + 1) * 2 > mask + 1 { grow() }
    unsafe insert(owner: slot.pointee.owner, instance: slot.pointee.instance)
  }

  private func insert(owner: _Owner, instance: UnsafeMutableRawPointer?) {
    var bucket = Self.bucket(owner, mask: mask)
    while let key = unsafe entries[bucket].owner {
      if key == owner { return }
      bucket = (bucket &+ 1) & mask
    }
    unsafe entries[bucket] = unsafe Entry(owner: owner, instance: instance)
    indexed += 1
  }

  private func grow() {
    let (old, oldCount) = unsafe (entries, mask + 1)
    mask = oldCount * 2 - 1
    unsafe entries = .allocate(capacity: mask + 1)
    unsafe entries.initialize(repeating: Entry(), count: mask + 1)
    indexed = 0
    for bucket in 0..<oldCount {
      if let owner = unsafe old[bucket].owner {
        unsafe insert(owner: owner, instance: old[bucket].instance)
      }
    }
    unsafe old.deallocate()
  }

  func store(
    copyOf value: UnsafeRawPointer, owner: _Owner, layout: borrowing _ValueLayout,
    copy: _Copier
  ) {
    if unsafe chunks.isEmpty || lastCount == chunks[chunks.count - 1].capacity {
      let capacity = unsafe chunks.last.map { unsafe $0.capacity * 2 } ?? _GraphScope.capacity * 2
      unsafe chunks.append((.allocate(capacity: capacity), capacity))
      lastCount = 0
    }
    let slot = unsafe chunks[chunks.count - 1].slots + lastCount
    unsafe _GraphSlot.initialize(slot, copyOf: value, owner: owner, layout: layout, copy: copy)
    lastCount += 1
    unsafe index(slot)
    unsafe _internalCheck(
      instance(for: slot.pointee.owner) != nil, "a stored instance is not indexed")
  }

  /// Checks the contract (see ``_internalCheck(_:_:file:line:)``): chunks that double, an index
  /// at most half full of distinct owners, and every stored owner found through it.
  func _checkInvariants() {
    let capacity = mask + 1
    _internalCheck(capacity >= 16 && capacity & mask == 0, "index capacity \(capacity)")
    _internalCheck(indexed * 2 <= capacity, "index more than half full")
    var keys = Set<UInt>()
    for bucket in 0..<capacity {
      if let owner = unsafe entries[bucket].owner {
        _internalCheck(keys.insert(owner.bits).inserted, "an owner indexed twice")
      }
    }
    _internalCheck(
      keys.count == indexed, "\(indexed) indexed, \(keys.count) in the index")
    for unsafe(index, chunk) in unsafe chunks.enumerated() {
      unsafe _internalCheck(
        chunk.capacity == _GraphScope.capacity * 2 << index, "chunk \(index) does not double")
    }
    unsafe _internalCheck(
      chunks.isEmpty ? lastCount == 0 : lastCount <= chunks[chunks.count - 1].capacity,
      "last chunk count")
    unsafe forEachSlot { slot in
      unsafe _internalCheck(
        instance(for: slot.pointee.owner) != nil, "a stored instance is not indexed")
    }
  }

  func forEachSlot(_ body: (UnsafeMutablePointer<_GraphSlot>) -> Void) {
    for unsafe(index, chunk) in unsafe chunks.enumerated() {
      for offset in unsafe 0..<(index == chunks.count - 1 ? lastCount : chunk.capacity) {
        unsafe body(chunk.slots + offset)
      }
    }
  }
}
