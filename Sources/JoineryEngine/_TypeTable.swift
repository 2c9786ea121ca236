/// What a ``_TypeTable`` keeps: an object found by its type, perhaps under a tag, perhaps
/// taking runtime arguments.
///
/// Joinery's bindings are these.
@usableFromInline package protocol _TypeTableMember: AnyObject, Sendable {
  associatedtype Tag: _TypeTableTag
  /// The identity of the type it is found under.
  var tableType: ObjectIdentifier { get }
  /// Its tag, boxed; `nil` for an untagged member.
  var tableTag: Tag? { get }
  /// The identity of the tuple type of its runtime arguments; `nil` when it takes none.
  var tableSignature: ObjectIdentifier? { get }
}

/// A member's boxed tag, which a lookup compares with the tag value a request passes, without
/// boxing that value.
@usableFromInline package protocol _TypeTableTag: AnyObject, Sendable {
  /// The hash ``hash(of:)`` gives the value the box holds.
  var hash: Int { get }
  /// Whether the box holds `value`.
  func holds<Value: Hashable & Sendable>(_ value: Value) -> Bool
  /// The hash of a requested tag value, comparable with a box's ``hash``.
  static func hash<Value: Hashable & Sendable>(of value: Value) -> Int
}

/// The frozen lookup table: type identity → the members of that type.
///
/// Built once and never changed, so it is read without any lock. The map is an
/// ``_IdentityTable`` from a type's identity to a word that says what serves the type: the
/// address of its one untagged member (even), or of its ``_TypeEntry`` with the low bit set. A
/// type with one untagged member — the common case — has no entry. The table holds its entries;
/// its owner holds the members.
@safe
@usableFromInline package struct _TypeTable<Member: _TypeTableMember>: Sendable {
  @usableFromInline package let map: _IdentityTable
  /// Owns the entries, one per type that has one (not per slot).
  @usableFromInline let ownedEntries: ContiguousArray<_TypeEntry<Member>>

  /// The table of `members`, which its owner keeps alive as long as the table.
  @inlinable
  package init(_ members: [Member]) {
    let groups = _TypeGroups(count: members.count) {
      UInt(bitPattern: members[$0].tableType)
    }
    var owned = ContiguousArray<_TypeEntry<Member>>()
    map = _IdentityTable(count: groups.starts.count) { insert in
      for start in groups.starts {
        let first = members[start]
        let isAlone = groups.isAlone(start)
        let value: UInt
        if isAlone, first.tableTag == nil, first.tableSignature == nil {
          value = unsafe UInt(bitPattern: Unmanaged.passUnretained(first).toOpaque())
        } else {
          let entry =
            isAlone
            ? _TypeEntry(single: first)
            : _TypeEntry(groups.members(from: start).map { members[$0] })
          owned.append(entry)
          value = unsafe UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) | 1
        }
        insert(UInt(bitPattern: first.tableType), value)
      }
    }
    ownedEntries = owned
    #if JOINERY_INTERNAL_CHECKS
      _checkInvariants(typeCount: groups.starts.count)
    #endif
  }

  /// Checks the table's contract (see ``_internalCheck(_:_:file:line:)``): the map's own, and
  /// every type served by an untagged member of that type or by one of the table's entries.
  ///
  /// `typeCount`: how many types were given.
  @usableFromInline package func _checkInvariants(typeCount: Int? = nil) {
    map._checkInvariants(count: typeCount)
    let entries = Set(
      ownedEntries.map { unsafe UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) })
    for (identity, value) in map.entries {
      if value & 1 == 1 {
        _internalCheck(entries.contains(value & ~1), "\(identity): an entry not owned")
      } else {
        let member = unsafe UnsafeRawPointer(bitPattern: value).map {
          unsafe Unmanaged<Member>.fromOpaque($0).takeUnretainedValue()
        }
        _internalCheck(
          member.map {
            UInt(bitPattern: $0.tableType) == identity && $0.tableTag == nil
              && $0.tableSignature == nil
          } ?? false, "\(identity) is served by another type's or a tagged member")
      }
    }
    _internalCheck(
      entries.count == ownedEntries.count && entries.count <= map.entries.count, "entries")
  }

  /// The slot of a type, or `nil` if the type has no member at all.
  @inlinable @inline(__always)
  package func slot(for identity: ObjectIdentifier) -> Int? {
    map.slot(for: UInt(bitPattern: identity))
  }

  /// The untagged member of the type in `slot`, if it has one, unretained.
  @inlinable @inline(__always)
  package func untaggedMember(at slot: Int) -> Unmanaged<Member>? {
    let value = map.value(at: slot)
    if value & 1 == 0 {
      return unsafe UnsafeRawPointer(bitPattern: value).map { unsafe Unmanaged.fromOpaque($0) }
    }
    return unsafe Unmanaged<_TypeEntry<Member>>.fromOpaque(
      UnsafeRawPointer(bitPattern: value & ~1).unsafelyUnwrapped
    )
    ._withUnsafeGuaranteedRef { unsafe $0.untaggedReference }
  }

  /// The entry of the type in `slot`; `nil` for a type with one untagged member.
  @inlinable @inline(__always)
  package func entry(at slot: Int) -> Unmanaged<_TypeEntry<Member>>? {
    let value = map.value(at: slot)
    guard value & 1 == 1 else { return nil }
    return unsafe Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: value & ~1).unsafelyUnwrapped)
  }

  /// The untagged member of a type, without touching any reference count.
  @inlinable @inline(__always)
  package func untaggedMember(for identity: ObjectIdentifier) -> Unmanaged<Member>? {
    guard let slot = slot(for: identity) else { return nil }
    return unsafe untaggedMember(at: slot)
  }

  /// The untagged member of a type, retained.
  ///
  /// Off the hot paths.
  @inlinable
  package func untaggedMember(ofType identity: ObjectIdentifier) -> Member? {
    unsafe untaggedMember(for: identity)?.takeUnretainedValue()
  }

  /// The members of one type, or `nil` if the type has none.
  ///
  /// Off the hot paths.
  @inlinable
  package func entry(for identity: ObjectIdentifier) -> _TypeEntry<Member>? {
    guard let slot = slot(for: identity) else { return nil }
    if let entry = unsafe entry(at: slot) { return unsafe entry.takeUnretainedValue() }
    // A type with one untagged member: an entry made for this (cold) question.
    return unsafe untaggedMember(at: slot).map {
      unsafe _TypeEntry(single: $0.takeUnretainedValue())
    }
  }

  /// The entry of a type, retained; `nil` for a type with one untagged member.
  ///
  /// Off the hot paths: unlike ``entry(for:)``, it makes no entry for such a type.
  @inlinable
  package func storedEntry(for identity: ObjectIdentifier) -> _TypeEntry<Member>? {
    guard let slot = slot(for: identity) else { return nil }
    return unsafe entry(at: slot)?.takeUnretainedValue()
  }

  /// The member tagged exactly `tag` in the type's entry, retained: off the hot paths.
  @inlinable
  package func member(
    _ identity: ObjectIdentifier, taggedAs tag: some Hashable & Sendable
  ) -> Member? {
    guard let slot = slot(for: identity), let entry = unsafe entry(at: slot) else { return nil }
    return unsafe entry._withUnsafeGuaranteedRef { $0.member(tag: tag) }
  }
}

/// Every member of one type.
@safe
@usableFromInline package final class _TypeEntry<Member: _TypeTableMember>: Sendable {
  @usableFromInline package let untagged: Member?
  /// `untagged` again, read by the table without reference counting.
  @usableFromInline let untaggedReference: Unmanaged<Member>?
  /// Tagged members, in the order given.
  @usableFromInline package let tagged: ContiguousArray<Member>
  /// For types with many tags: tag hash → positions in `tagged`.
  @usableFromInline let taggedByHash: [Int: [Int]]?
  /// Members that take runtime arguments, any tag, in the order given.
  @usableFromInline package let withArguments: ContiguousArray<Member>
  /// `tagged` again, with each member's tag box beside it.
  ///
  /// Compared without reference counting on the hot path. Empty when the type has no tagged
  /// member, the common case.
  @usableFromInline let tagIndex: _FrozenBuffer<TaggedSlot>
  /// `withArguments` again, read without reference counting: each member's argument tuple
  /// type and tag box beside it.
  @usableFromInline let argumentIndex: _FrozenBuffer<ArgumentSlot>

  /// One tagged member, as the hot path compares it.
  @usableFromInline struct TaggedSlot: Sendable {
    @usableFromInline let tag: _Unretained<Member.Tag>
    @usableFromInline let member: _Unretained<Member>

    @inlinable init(tag: _Unretained<Member.Tag>, member: _Unretained<Member>) {
      self.tag = tag
      self.member = member
    }
  }

  /// One member with runtime arguments, as the hot path compares it.
  @usableFromInline struct ArgumentSlot: Sendable {
    @usableFromInline let signature: ObjectIdentifier
    @usableFromInline let tag: _Unretained<Member.Tag>?
    @usableFromInline let member: _Unretained<Member>

    @inlinable
    init(signature: ObjectIdentifier, tag: _Unretained<Member.Tag>?, member: _Unretained<Member>) {
      self.signature = signature
      self.tag = tag
      self.member = member
    }
  }

  /// Up to this many tags are compared one by one, without hashing the requested tag.
  @inlinable static var linearTagLimit: Int { 8 }

  /// The entry of a type with one member, the common case.
  @inlinable
  package convenience init(single member: Member) { self.init([member]) }

  @inlinable
  package init(_ members: [Member]) {
    var untagged: Member?
    var tagged: ContiguousArray<Member> = []
    var withArguments: ContiguousArray<Member> = []
    for member in members {
      if member.tableSignature != nil {
        withArguments.append(member)
      } else if member.tableTag != nil {
        tagged.append(member)
      } else {
        untagged = member
      }
    }
    self.untagged = untagged
    unsafe untaggedReference = unsafe untagged.map { unsafe Unmanaged.passUnretained($0) }
    self.tagged = tagged
    self.withArguments = withArguments
    if tagged.count > Self.linearTagLimit {
      var index: [Int: [Int]] = [:]
      index.reserveCapacity(tagged.count)
      for (position, member) in tagged.enumerated() {
        unsafe index[member.tableTag.unsafelyUnwrapped.hash, default: []].append(position)
      }
      taggedByHash = index
    } else {
      taggedByHash = nil
    }
    tagIndex = _FrozenBuffer(count: tagged.count) { position in
      unsafe TaggedSlot(
        tag: _Unretained(tagged[position].tableTag.unsafelyUnwrapped),
        member: _Unretained(tagged[position]))
    }
    argumentIndex = _FrozenBuffer(count: withArguments.count) { position in
      let member = withArguments[position]
      return unsafe ArgumentSlot(
        signature: member.tableSignature.unsafelyUnwrapped,
        tag: member.tableTag.map { _Unretained($0) }, member: _Unretained(member))
    }
  }

  /// The member tagged exactly `tag`.
  @inlinable @inline(__always)
  package func member<Tag: Hashable & Sendable>(tag: Tag) -> Member? {
    if let taggedByHash {
      let hash = Member.Tag.hash(of: tag)
      for position in taggedByHash[hash] ?? [] {
        let box = unsafe tagged[position].tableTag.unsafelyUnwrapped
        if box.hash == hash && box.holds(tag) { return tagged[position] }
      }
      return nil
    }
    for position in tagIndex.indices {
      let candidate = tagIndex[position]
      if unsafe candidate.tag.with({ $0.holds(tag) }) {
        return unsafe candidate.member.reference.takeUnretainedValue()
      }
    }
    return nil
  }

  /// The member with runtime arguments for a tag and argument tuple type, falling back to the
  /// untagged one; unretained, and whether it fell back.
  @inlinable
  package func argumentMember<Tag: Hashable & Sendable>(
    tag: Tag?, signature: ObjectIdentifier, allowsFallback: Bool
  ) -> (member: Unmanaged<Member>, fellBack: Bool)? {
    var untagged: Unmanaged<Member>?
    for position in argumentIndex.indices {
      let slot = argumentIndex[position]
      guard slot.signature == signature else { continue }
      if let bound = slot.tag {
        if let tag, unsafe bound.with({ $0.holds(tag) }) {
          return unsafe (slot.member.reference, false)
        }
      } else if tag == nil {
        return unsafe (slot.member.reference, false)
      } else {
        unsafe untagged = unsafe slot.member.reference
      }
    }
    if allowsFallback, let untagged = unsafe untagged { return unsafe (untagged, true) }
    return nil
  }

  /// Every member: the untagged one, the tagged ones, those with runtime arguments.
  @inlinable
  package var allMembers: [Member] {
    (untagged.map { [$0] } ?? []) + tagged + withArguments
  }
}

/// Elements grouped by identity: the groups in the order first seen, each in element order.
///
/// Made in one pass over the elements, with two arrays of positions: no array per group.
@usableFromInline package struct _TypeGroups {
  /// The position of the first element of each group, in the order groups were first seen.
  @usableFromInline package private(set) var starts: [Int] = []
  /// The position of the next element of the same group, or -1.
  @usableFromInline var next: [Int]

  /// The groups of `count` elements, the element at a position having identity
  /// `identity(position)`, nonzero.
  @inlinable
  package init(count: Int, identity: (Int) -> UInt) {
    next = [Int](repeating: -1, count: count)
    var capacity = 8
    while capacity < count * 2 { capacity *= 2 }
    let mask = capacity - 1
    var identities = [UInt](repeating: 0, count: capacity)
    var tails = [Int](repeating: -1, count: capacity)
    for position in 0..<count {
      let id = identity(position)
      var index = _IdentityTable.home(of: id, mask: mask)
      while identities[index] != 0 && identities[index] != id { index = (index + 1) & mask }
      if identities[index] == 0 {
        identities[index] = id
        starts.append(position)
      } else {
        next[tails[index]] = position
      }
      tails[index] = position
    }
  }

  /// Whether the group that starts at `start` has no other element: the common case.
  @inlinable
  package func isAlone(_ start: Int) -> Bool { next[start] < 0 }

  /// The positions of the group that starts at `start`, in element order.
  @inlinable
  package func members(from start: Int) -> [Int] {
    var members = [start]
    var current = next[start]
    while current >= 0 {
      members.append(current)
      current = next[current]
    }
    return members
  }
}
