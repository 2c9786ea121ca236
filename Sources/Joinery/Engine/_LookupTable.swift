public import JoineryEngine

/// The frozen lookup table: type identity → the bindings of that type.
///
/// Built once by `build()` and never changed, so it is read without any lock. Open addressing
/// with linear probing over the bits of `ObjectIdentifier`, at most three quarters full. Each
/// slot is two words, a type's identity and what serves it, so a lookup usually reads a single
/// cache line.
@usableFromInline
// Immutable after init; the raw memory is written only there.
struct _BindingTable: @unchecked Sendable {
  /// One slot: raw memory, so reading it touches no reference count that threads resolving at
  /// once would contend for.
  @usableFromInline @frozen
  struct Slot {
    /// The type's metadata address; 0 for an empty slot.
    @usableFromInline var identity: UInt
    /// The type's untagged binding (an even address), or its ``_TypeEntry`` with the low bit
    /// set.
    ///
    /// A type bound once, untagged — the common case — has no entry.
    @usableFromInline var value: UInt
  }

  @usableFromInline let slots: UnsafePointer<Slot>
  /// Owns the entries, one per type that has one (not per slot).
  private let ownedEntries: ContiguousArray<_TypeEntry>
  @usableFromInline let mask: Int
  /// Owns the raw memory above; the bindings are owned by the container.
  private let memory: TableMemory

  init(_ bindings: [AnyBinding]) {
    let groups = TypeGroups(bindings)
    var capacity = 8
    while capacity * 3 < groups.starts.count * 4 { capacity *= 2 }
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    slots.initialize(repeating: Slot(identity: 0, value: 0), count: capacity)
    var owned = ContiguousArray<_TypeEntry>()
    let mask = capacity - 1
    for start in groups.starts {
      let identity = ObjectIdentifier(bindings[start].key.type)
      let first = bindings[start]
      let isAlone = groups.isAlone(start)
      let value: UInt
      // The common case, a type bound once and untagged, needs no entry.
      if isAlone, first.key.tag == nil, first.key.argumentTypes == nil {
        value = UInt(bitPattern: Unmanaged.passUnretained(first).toOpaque())
      } else {
        let entry =
          isAlone
          ? _TypeEntry(single: first) : _TypeEntry(groups.members(from: start).map { bindings[$0] })
        owned.append(entry)
        value = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) | 1
      }
      Self.insert(
        Slot(identity: UInt(bitPattern: identity), value: value), into: slots, mask: mask)
    }
    self.slots = UnsafePointer(slots)
    ownedEntries = owned
    self.mask = mask
    memory = TableMemory(slots: slots)
    #if JOINERY_INTERNAL_CHECKS
      _checkInvariants(bindingCount: groups.starts.count)
    #endif
  }

  /// Checks the table's contract (see ``_internalCheck(_:_:file:line:)``): a power-of-two
  /// capacity at most three quarters full, every type once, reachable by probing from its home
  /// slot, and served by an untagged binding of that type or by one of the table's entries.
  ///
  /// `bindingCount`: how many types were bound.
  func _checkInvariants(bindingCount: Int? = nil) {
    let capacity = mask + 1
    _internalCheck(capacity >= 8 && capacity & mask == 0, "capacity \(capacity)")
    var seen = Set<UInt>()
    let entries = Set(
      ownedEntries.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) })
    for index in 0..<capacity where slots[index].identity != 0 {
      let slot = slots[index]
      _internalCheck(seen.insert(slot.identity).inserted, "a type in two slots (\(index))")
      var probe = Self.home(ofAddress: slot.identity, mask: mask)
      while probe != index {
        _internalCheck(slots[probe].identity != 0, "slot \(index) is past an empty slot")
        probe = (probe &+ 1) & mask
      }
      if slot.value & 1 == 1 {
        _internalCheck(entries.contains(slot.value & ~1), "slot \(index): an entry not owned")
      } else {
        let binding = untaggedBinding(at: index)?.takeUnretainedValue()
        _internalCheck(
          binding.map {
            UInt(bitPattern: ObjectIdentifier($0.key.type)) == slot.identity && $0.key.tag == nil
              && $0.key.argumentTypes == nil
          } ?? false, "slot \(index) is served by another type's or a tagged binding")
      }
    }
    _internalCheck(seen.count * 4 <= capacity * 3, "more than three quarters full")
    _internalCheck(bindingCount.map { $0 == seen.count } ?? true, "types lost")
    _internalCheck(entries.count == ownedEntries.count && entries.count <= seen.count, "entries")
  }

  /// Robin Hood insertion: a type further from its home slot takes the place of one nearer to
  /// its own.
  ///
  /// Lookups still probe linearly until they find the type or an empty slot, but no
  /// type ends up far from home, so no type's resolve is slow because of where its metadata
  /// happens to be in memory.
  private static func insert(_ slot: Slot, into slots: UnsafeMutablePointer<Slot>, mask: Int) {
    var item = slot
    var distance = 0
    var index = home(ofAddress: item.identity, mask: mask)
    while slots[index].identity != 0 {
      let resident = (index &- home(ofAddress: slots[index].identity, mask: mask)) & mask
      if resident < distance {
        swap(&item, &slots[index])
        distance = resident
      }
      index = (index &+ 1) & mask
      distance += 1
    }
    slots[index] = item
  }

  /// The slot of a type, or `nil` if the type is not bound at all.
  @inlinable @inline(__always)
  func slot(for identity: ObjectIdentifier) -> Int? {
    let wanted = UInt(bitPattern: identity)
    var index = Self.home(of: identity, mask: mask)
    while true {
      let found = slots[index].identity
      if found == wanted { return index }
      if found == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// The untagged binding of the type in `slot`, if it has one.
  @inlinable @inline(__always)
  func untaggedBinding(at slot: Int) -> Unmanaged<AnyBinding>? {
    let value = slots[slot].value
    if value & 1 == 0 {
      return UnsafeRawPointer(bitPattern: value).map { Unmanaged.fromOpaque($0) }
    }
    return Unmanaged<_TypeEntry>.fromOpaque(
      UnsafeRawPointer(bitPattern: value & ~1).unsafelyUnwrapped
    )
    ._withUnsafeGuaranteedRef { $0.untaggedReference }
  }

  /// The entry of the type in `slot`; `nil` for a type bound once, untagged.
  @inlinable @inline(__always)
  func entry(at slot: Int) -> Unmanaged<_TypeEntry>? {
    let value = slots[slot].value
    guard value & 1 == 1 else { return nil }
    return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: value & ~1).unsafelyUnwrapped)
  }

  /// The untagged binding of a type, without touching any reference count.
  @inlinable @inline(__always)
  func untaggedBinding(for identity: ObjectIdentifier) -> Unmanaged<AnyBinding>? {
    guard let slot = slot(for: identity) else { return nil }
    return untaggedBinding(at: slot)
  }

  @inlinable @inline(__always)
  static func home(of identity: ObjectIdentifier, mask: Int) -> Int {
    home(ofAddress: UInt(bitPattern: identity), mask: mask)
  }

  @inlinable @inline(__always)
  static func home(ofAddress address: UInt, mask: Int) -> Int {
    // Metadata addresses are aligned; Fibonacci hashing spreads the remaining bits. The product
    // is taken in 64 bits on every platform: a 32-bit `UInt` (watchOS arm64_32) cannot hold the
    // constant, and on 64-bit platforms the conversions are free.
    let bits = UInt64(truncatingIfNeeded: address &>> 3)
    return Int(truncatingIfNeeded: (bits &* (0x9E37_79B9_7F4A_7C15 as UInt64)) &>> 32) & mask
  }

  /// The untagged binding of `type`, if it has one.
  ///
  /// Off the hot paths.
  func untaggedBinding(ofType type: Any.Type) -> AnyBinding? {
    untaggedBinding(for: ObjectIdentifier(type))?.takeUnretainedValue()
  }

  /// The bindings of one type, or `nil` if the type is not bound at all.
  ///
  /// Off the hot paths.
  @usableFromInline
  func entry(for identity: ObjectIdentifier) -> _TypeEntry? {
    guard let slot = slot(for: identity) else { return nil }
    if let entry = entry(at: slot) { return entry.takeUnretainedValue() }
    // A type bound once, untagged: an entry made for this (cold) question.
    return untaggedBinding(at: slot).map { _TypeEntry(single: $0.takeUnretainedValue()) }
  }

  /// The binding stored under exactly `key`.
  func binding(for key: BindingKey) -> AnyBinding? {
    guard let slot = slot(for: ObjectIdentifier(key.type)) else { return nil }
    if key.tag == nil && key.argumentTypes == nil {
      return untaggedBinding(at: slot)?.takeUnretainedValue()
    }
    // A type without an entry has only its untagged binding. (No temporary entry here: child
    // containers ask this on every resolve they hand to an ancestor.)
    guard let entry = entry(at: slot)?.takeUnretainedValue() else { return nil }
    if key.argumentTypes != nil {
      return entry.withArguments.first { $0.key == key }
    }
    // Through the tag index: validation asks this once per declared edge, so a type with
    // thousands of tags must not be scanned each time.
    return key.tag.flatMap { entry.binding(tag: $0) }
  }
}

/// The raw memory of a table, freed with it.
private final class TableMemory: Sendable {
  nonisolated(unsafe) let slots: UnsafeMutablePointer<_BindingTable.Slot>

  init(slots: UnsafeMutablePointer<_BindingTable.Slot>) {
    self.slots = slots
  }

  deinit {
    slots.deallocate()
  }
}

/// Every binding of one type.
@usableFromInline
// Immutable after init; `tagIndex` is written only there.
final class _TypeEntry: @unchecked Sendable {
  @usableFromInline let untagged: AnyBinding?
  /// `untagged` again, read by the table without reference counting.
  @usableFromInline let untaggedReference: Unmanaged<AnyBinding>?
  /// Tagged bindings, in registration order.
  @usableFromInline let tagged: ContiguousArray<AnyBinding>
  /// For types with many tags: tag hash → indices into `tagged`.
  @usableFromInline let taggedByHash: [Int: [Int]]?
  /// Bindings that take runtime arguments, any tag, in registration order.
  @usableFromInline let withArguments: ContiguousArray<AnyBinding>
  /// `tagged` again, with each binding's tag box beside it: compared without reference
  /// counting on the hot path.
  ///
  /// The bindings own the boxes; `tagged` owns the bindings. `nil`
  /// when the type has no tagged binding, the common case.
  @usableFromInline let tagIndex:
    UnsafeMutablePointer<(tag: Unmanaged<AnyTagBox>, binding: Unmanaged<AnyBinding>)>?

  /// `withArguments` again, read without reference counting: each binding's argument tuple
  /// type and tag box beside it.
  ///
  /// `nil` when the type has no binding with arguments.
  @usableFromInline let argumentIndex: UnsafeMutablePointer<_ArgumentSlot>?
  @usableFromInline let argumentCount: Int

  /// Up to this many tags are compared one by one, without hashing the requested tag.
  static let linearTagLimit = 8

  /// The entry of a type bound once, the common case.
  init(single binding: AnyBinding) {
    if binding.key.argumentTypes != nil {
      (untagged, tagged, withArguments) = (nil, [], [binding])
    } else if binding.key.tag != nil {
      (untagged, tagged, withArguments) = (nil, [binding], [])
    } else {
      (untagged, tagged, withArguments) = (binding, [], [])
    }
    untaggedReference = untagged.map { Unmanaged.passUnretained($0) }
    taggedByHash = nil
    tagIndex = Self.index(tagged)
    argumentIndex = Self.index(arguments: withArguments)
    argumentCount = withArguments.count
  }

  private static func index(
    _ tagged: ContiguousArray<AnyBinding>
  ) -> UnsafeMutablePointer<(tag: Unmanaged<AnyTagBox>, binding: Unmanaged<AnyBinding>)>? {
    if tagged.isEmpty { return nil }
    let index = UnsafeMutablePointer<(tag: Unmanaged<AnyTagBox>, binding: Unmanaged<AnyBinding>)>
      .allocate(capacity: tagged.count)
    for (position, binding) in tagged.enumerated() {
      index[position] = (
        Unmanaged.passUnretained(binding.key.tag.unsafelyUnwrapped.box),
        Unmanaged.passUnretained(binding)
      )
    }
    return index
  }

  private static func index(arguments: ContiguousArray<AnyBinding>) -> UnsafeMutablePointer<
    _ArgumentSlot
  >? {
    if arguments.isEmpty { return nil }
    let index = UnsafeMutablePointer<_ArgumentSlot>.allocate(capacity: arguments.count)
    for (position, binding) in arguments.enumerated() {
      index[position] = _ArgumentSlot(
        signature: ObjectIdentifier(binding.key.argumentTypes.unsafelyUnwrapped),
        tag: binding.key.tag.map { Unmanaged.passUnretained($0.box) },
        binding: Unmanaged.passUnretained(binding))
    }
    return index
  }

  deinit {
    tagIndex?.deallocate()
    argumentIndex?.deallocate()
  }

  init(_ bindings: [AnyBinding]) {
    var untagged: AnyBinding?
    var tagged: ContiguousArray<AnyBinding> = []
    var withArguments: ContiguousArray<AnyBinding> = []
    for binding in bindings {
      if binding.key.argumentTypes != nil {
        withArguments.append(binding)
      } else if binding.key.tag != nil {
        tagged.append(binding)
      } else {
        untagged = binding
      }
    }
    self.untagged = untagged
    untaggedReference = untagged.map { Unmanaged.passUnretained($0) }
    self.tagged = tagged
    self.withArguments = withArguments
    if tagged.count > Self.linearTagLimit {
      var index: [Int: [Int]] = [:]
      for (position, binding) in tagged.enumerated() {
        index[binding.key.tag.unsafelyUnwrapped.box.hash, default: []].append(position)
      }
      taggedByHash = index
    } else {
      taggedByHash = nil
    }
    tagIndex = Self.index(tagged)
    argumentIndex = Self.index(arguments: withArguments)
    argumentCount = withArguments.count
  }

  /// The binding tagged exactly `tag`.
  @inlinable @inline(__always)
  func binding<Tag: Hashable & Sendable>(tag: Tag) -> AnyBinding? {
    if let taggedByHash {
      let hash = tagHash(tag)
      for position in taggedByHash[hash] ?? []
      where tagged[position].key.tag.unsafelyUnwrapped.box.holds(tag, hash: hash) {
        return tagged[position]
      }
      return nil
    }
    for position in 0..<tagged.count {
      let candidate = tagIndex.unsafelyUnwrapped[position]
      if candidate.tag._withUnsafeGuaranteedRef({ $0.holds(tag) }) {
        return candidate.binding.takeUnretainedValue()
      }
    }
    return nil
  }

  /// The argument binding for a tag and argument tuple type, falling back to the untagged one.
  @inlinable
  func argumentBinding<Tag: Hashable & Sendable>(
    tag: Tag?, signature: ObjectIdentifier, allowsFallback: Bool
  ) -> (binding: Unmanaged<AnyBinding>, fellBack: Bool)? {
    guard let argumentIndex else { return nil }
    var untagged: Unmanaged<AnyBinding>?
    for position in 0..<argumentCount {
      let slot = argumentIndex[position]
      guard slot.signature == signature else { continue }
      if let bound = slot.tag {
        if let tag, bound._withUnsafeGuaranteedRef({ $0.holds(tag) }) {
          return (slot.binding, false)
        }
      } else if tag == nil {
        return (slot.binding, false)
      } else {
        untagged = slot.binding
      }
    }
    if allowsFallback, let untagged { return (untagged, true) }
    return nil
  }

  var allBindings: [AnyBinding] {
    (untagged.map { [$0] } ?? []) + tagged + withArguments
  }
}

/// One binding with runtime arguments, as ``_TypeEntry`` compares it on the hot path.
@usableFromInline
struct _ArgumentSlot {
  @usableFromInline let signature: ObjectIdentifier
  @usableFromInline let tag: Unmanaged<AnyTagBox>?
  @usableFromInline let binding: Unmanaged<AnyBinding>
}

/// Whether `Value` is a boxed tag (`BindingTag`, `_TagBoxReference`).
///
/// Such a value is one reference to its box, read without a copy. The test folds away in
/// specialized code.
@inlinable @inline(__always)
func _isBoxedTag<Value>(_: Value.Type) -> Bool {
  Value.self == BindingTag.self || Value.self == _TagBoxReference.self
}

/// The hash a tagged lookup compares first: a boxed tag hashes as the value it wraps.
@inlinable @inline(__always)
func tagHash<Value: Hashable & Sendable>(_ value: Value) -> Int {
  if _isBoxedTag(Value.self) {
    return unsafeBitCast(value, to: Unmanaged<AnyTagBox>.self)._withUnsafeGuaranteedRef {
      $0.hash
    }
  }
  return value.hashValue
}

extension AnyTagBox {
  /// Whether this box wraps `value`, without hashing, allocating or a dynamic cast: the hot
  /// path of a lookup among a few tags.
  ///
  /// A boxed tag (`BindingTag`, `_TagBoxReference`) is one reference to its box, read without
  /// a copy and compared by identity first. Any other value is compared with the box's own
  /// value when the value types agree: a box whose `valueType` is `Value` is a `TagBox<Value>`.
  @inlinable @inline(__always)
  final func holds<Value: Hashable & Sendable>(_ value: Value) -> Bool {
    // A build shares one box per tag value: the identity test is the common hit.
    if _isBoxedTag(Value.self) {
      let other = unsafeBitCast(value, to: Unmanaged<AnyTagBox>.self)
      return other.toOpaque() == Unmanaged.passUnretained(self).toOpaque()
        || other._withUnsafeGuaranteedRef { self == $0 }
    }
    guard valueType == ObjectIdentifier(Value.self) else { return false }
    _internalCheck(self is TagBox<Value>, "a tag box's valueType names its value's type")
    return unsafeDowncast(self, to: TagBox<Value>.self).value == value
  }

  /// ``holds(_:)`` for a value whose ``tagHash(_:)`` is `hash`.
  @inlinable @inline(__always)
  final func holds<Value: Hashable & Sendable>(_ value: Value, hash: Int) -> Bool {
    self.hash == hash && holds(value)
  }
}
