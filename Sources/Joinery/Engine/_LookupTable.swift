public import JoineryEngine

/// The frozen lookup table: type identity → the bindings of that type.
///
/// Built once by `build()` and never changed, so it is read without any lock. The map itself is
/// the engine's ``_IdentityTable`` (open addressing, Robin Hood, at most a quarter full up to 64
/// types, with a hash multiplier chosen to put each in its home slot, and three quarters
/// beyond), from a type's metadata address to a word that says what serves the type.
@usableFromInline
struct _BindingTable: Sendable {
  /// Type identity → what serves the type.
  ///
  /// The type's untagged binding (an even address), or its ``_TypeEntry`` with the low bit set.
  /// A type bound once, untagged — the common case — has no entry.
  @usableFromInline let map: _IdentityTable
  /// Owns the entries, one per type that has one (not per slot).
  private let ownedEntries: ContiguousArray<_TypeEntry>

  init(_ bindings: [AnyBinding]) {
    let groups = TypeGroups(bindings)
    var owned = ContiguousArray<_TypeEntry>()
    map = _IdentityTable(count: groups.starts.count) { insert in
      for start in groups.starts {
        let first = bindings[start]
        let isAlone = groups.isAlone(start)
        let value: UInt
        // The common case, a type bound once and untagged, needs no entry.
        if isAlone, first.key.tag == nil, first.key.argumentTypes == nil {
          value = unsafe UInt(bitPattern: Unmanaged.passUnretained(first).toOpaque())
        } else {
          let entry =
            isAlone
            ? _TypeEntry(single: first)
            : _TypeEntry(groups.members(from: start).map { bindings[$0] })
          owned.append(entry)
          value = unsafe UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) | 1
        }
        insert(UInt(bitPattern: ObjectIdentifier(first.key.type)), value)
      }
    }
    ownedEntries = owned
    #if JOINERY_INTERNAL_CHECKS
      _checkInvariants(bindingCount: groups.starts.count)
    #endif
  }

  /// Checks the table's contract (see ``_internalCheck(_:_:file:line:)``): the map's own, and
  /// every type served by an untagged binding of that type or by one of the table's entries.
  ///
  /// `bindingCount`: how many types were bound.
  func _checkInvariants(bindingCount: Int? = nil) {
    map._checkInvariants(count: bindingCount)
    let entries = Set(
      ownedEntries.map { unsafe UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) })
    for (identity, value) in map.entries {
      if value & 1 == 1 {
        _internalCheck(entries.contains(value & ~1), "\(identity): an entry not owned")
      } else {
        let binding = unsafe UnsafeRawPointer(bitPattern: value).map {
          unsafe Unmanaged<AnyBinding>.fromOpaque($0).takeUnretainedValue()
        }
        _internalCheck(
          binding.map {
            UInt(bitPattern: ObjectIdentifier($0.key.type)) == identity && $0.key.tag == nil
              && $0.key.argumentTypes == nil
          } ?? false, "\(identity) is served by another type's or a tagged binding")
      }
    }
    _internalCheck(
      entries.count == ownedEntries.count && entries.count <= map.entries.count, "entries")
  }

  /// The slot of a type, or `nil` if the type is not bound at all.
  @inlinable @inline(__always)
  func slot(for identity: ObjectIdentifier) -> Int? {
    map.slot(for: UInt(bitPattern: identity))
  }

  /// The untagged binding of the type in `slot`, if it has one.
  @inlinable @inline(__always)
  func untaggedBinding(at slot: Int) -> Unmanaged<AnyBinding>? {
    let value = map.value(at: slot)
    if value & 1 == 0 {
      return unsafe UnsafeRawPointer(bitPattern: value).map { unsafe Unmanaged.fromOpaque($0) }
    }
    return unsafe Unmanaged<_TypeEntry>.fromOpaque(
      UnsafeRawPointer(bitPattern: value & ~1).unsafelyUnwrapped
    )
    ._withUnsafeGuaranteedRef { unsafe $0.untaggedReference }
  }

  /// The entry of the type in `slot`; `nil` for a type bound once, untagged.
  @inlinable @inline(__always)
  func entry(at slot: Int) -> Unmanaged<_TypeEntry>? {
    let value = map.value(at: slot)
    guard value & 1 == 1 else { return nil }
    return unsafe Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: value & ~1).unsafelyUnwrapped)
  }

  /// The untagged binding of a type, without touching any reference count.
  @inlinable @inline(__always)
  func untaggedBinding(for identity: ObjectIdentifier) -> Unmanaged<AnyBinding>? {
    guard let slot = slot(for: identity) else { return nil }
    return unsafe untaggedBinding(at: slot)
  }

  /// The untagged binding of `type`, if it has one.
  ///
  /// Off the hot paths.
  func untaggedBinding(ofType type: Any.Type) -> AnyBinding? {
    unsafe untaggedBinding(for: ObjectIdentifier(type))?.takeUnretainedValue()
  }

  /// The bindings of one type, or `nil` if the type is not bound at all.
  ///
  /// Off the hot paths.
  @usableFromInline
  func entry(for identity: ObjectIdentifier) -> _TypeEntry? {
    guard let slot = slot(for: identity) else { return nil }
    if let entry = unsafe entry(at: slot) { return unsafe entry.takeUnretainedValue() }
    // A type bound once, untagged: an entry made for this (cold) question.
    return unsafe untaggedBinding(at: slot).map {
      unsafe _TypeEntry(single: $0.takeUnretainedValue())
    }
  }

  /// The binding stored under exactly `key`.
  func binding(for key: BindingKey) -> AnyBinding? {
    guard let slot = slot(for: ObjectIdentifier(key.type)) else { return nil }
    if key.tag == nil && key.argumentTypes == nil {
      return unsafe untaggedBinding(at: slot)?.takeUnretainedValue()
    }
    // A type without an entry has only its untagged binding. (No temporary entry here: child
    // containers ask this on every resolve they hand to an ancestor.)
    guard let entry = unsafe entry(at: slot)?.takeUnretainedValue() else { return nil }
    if key.argumentTypes != nil {
      return entry.withArguments.first { $0.key == key }
    }
    // Through the tag index: validation asks this once per declared edge, so a type with
    // thousands of tags must not be scanned each time.
    return key.tag.flatMap { entry.binding(tag: $0) }
  }
}

/// Every binding of one type.
@usableFromInline
// Immutable after init; `tagIndex` is written only there.
@safe
final class _TypeEntry: Sendable {
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
  /// The bindings own the boxes; `tagged` owns the bindings. Empty when the type has no tagged
  /// binding, the common case.
  @usableFromInline let tagIndex: _FrozenBuffer<_TaggedSlot>

  /// `withArguments` again, read without reference counting: each binding's argument tuple
  /// type and tag box beside it.
  @usableFromInline let argumentIndex: _FrozenBuffer<_ArgumentSlot>

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
    unsafe untaggedReference = unsafe untagged.map { unsafe Unmanaged.passUnretained($0) }
    taggedByHash = nil
    tagIndex = Self.index(tagged)
    argumentIndex = Self.index(arguments: withArguments)
  }

  private static func index(_ tagged: ContiguousArray<AnyBinding>) -> _FrozenBuffer<_TaggedSlot> {
    _FrozenBuffer(count: tagged.count) { position in
      unsafe _TaggedSlot(
        tag: _Unretained(tagged[position].key.tag.unsafelyUnwrapped.box),
        binding: _Unretained(tagged[position]))
    }
  }

  private static func index(arguments: ContiguousArray<AnyBinding>) -> _FrozenBuffer<
    _ArgumentSlot
  > {
    _FrozenBuffer(count: arguments.count) { position in
      let binding = arguments[position]
      return unsafe _ArgumentSlot(
        signature: ObjectIdentifier(binding.key.argumentTypes.unsafelyUnwrapped),
        tag: binding.key.tag.map { _Unretained($0.box) }, binding: _Unretained(binding))
    }
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
    unsafe untaggedReference = unsafe untagged.map { unsafe Unmanaged.passUnretained($0) }
    self.tagged = tagged
    self.withArguments = withArguments
    if tagged.count > Self.linearTagLimit {
      var index: [Int: [Int]] = [:]
      index.reserveCapacity(tagged.count)
      for (position, binding) in tagged.enumerated() {
        unsafe index[binding.key.tag.unsafelyUnwrapped.box.hash, default: []].append(position)
      }
      taggedByHash = index
    } else {
      taggedByHash = nil
    }
    tagIndex = Self.index(tagged)
    argumentIndex = Self.index(arguments: withArguments)
  }

  /// The binding tagged exactly `tag`.
  @inlinable @inline(__always)
  func binding<Tag: Hashable & Sendable>(tag: Tag) -> AnyBinding? {
    if let taggedByHash {
      let hash = tagHash(tag)
      for position in taggedByHash[hash] ?? []
      where unsafe tagged[position].key.tag.unsafelyUnwrapped.box.holds(tag, hash: hash) {
        return tagged[position]
      }
      return nil
    }
    for position in tagIndex.indices {
      let candidate = tagIndex[position]
      if unsafe candidate.tag.with({ $0.holds(tag) }) {
        return unsafe candidate.binding.reference.takeUnretainedValue()
      }
    }
    return nil
  }

  /// The argument binding for a tag and argument tuple type, falling back to the untagged one.
  @inlinable
  func argumentBinding<Tag: Hashable & Sendable>(
    tag: Tag?, signature: ObjectIdentifier, allowsFallback: Bool
  ) -> (binding: Unmanaged<AnyBinding>, fellBack: Bool)? {
    var untagged: Unmanaged<AnyBinding>?
    for position in argumentIndex.indices {
      let slot = argumentIndex[position]
      guard slot.signature == signature else { continue }
      if let bound = slot.tag {
        if let tag, unsafe bound.with({ $0.holds(tag) }) {
          return unsafe (slot.binding.reference, false)
        }
      } else if tag == nil {
        return unsafe (slot.binding.reference, false)
      } else {
        unsafe untagged = unsafe slot.binding.reference
      }
    }
    if allowsFallback, let untagged = unsafe untagged { return unsafe (untagged, true) }
    return nil
  }

  var allBindings: [AnyBinding] {
    (untagged.map { [$0] } ?? []) + tagged + withArguments
  }
}

/// One tagged binding, as ``_TypeEntry`` compares it on the hot path.
@usableFromInline
struct _TaggedSlot: Sendable {
  @usableFromInline let tag: _Unretained<AnyTagBox>
  @usableFromInline let binding: _Unretained<AnyBinding>
}

/// One binding with runtime arguments, as ``_TypeEntry`` compares it on the hot path.
@usableFromInline
struct _ArgumentSlot: Sendable {
  @usableFromInline let signature: ObjectIdentifier
  @usableFromInline let tag: _Unretained<AnyTagBox>?
  @usableFromInline let binding: _Unretained<AnyBinding>
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
    return unsafe unsafeBitCast(value, to: Unmanaged<AnyTagBox>.self)._withUnsafeGuaranteedRef {
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
  /// value when the value types agree: a box whose `valueType` is `Value` holds a
  /// `TagBox<Value>`.
  @inlinable @inline(__always)
  final func holds<Value: Hashable & Sendable>(_ value: Value) -> Bool {
    // A build shares one box per tag value: the identity test is the common hit.
    if _isBoxedTag(Value.self) {
      let other = unsafe unsafeBitCast(value, to: Unmanaged<AnyTagBox>.self)
      return unsafe other.toOpaque() == Unmanaged.passUnretained(self).toOpaque()
        || other._withUnsafeGuaranteedRef { self == $0 }
    }
    guard valueType == ObjectIdentifier(Value.self) else { return false }
    _internalCheck(self.value is TagBox<Value>, "a tag box's valueType names its value's type")
    return unsafe unsafeDowncast(self.value as AnyObject, to: TagBox<Value>.self).value == value
  }

  /// ``holds(_:)`` for a value whose ``tagHash(_:)`` is `hash`.
  @inlinable @inline(__always)
  final func holds<Value: Hashable & Sendable>(_ value: Value, hash: Int) -> Bool {
    self.hash == hash && holds(value)
  }
}
