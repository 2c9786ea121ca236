// Public: the type memos' inlinable reads use the platform's atomics.
public import JoineryPlatform

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

  /// The untagged member of the type in `slot`, if it has one, unretained: the table keeps it
  /// for as long as the table lives.
  @inlinable @inline(__always)
  package func untaggedMember(at slot: Int) -> _Unretained<Member>? {
    let value = map.value(at: slot)
    if value & 1 == 0 {
      return unsafe UnsafeRawPointer(bitPattern: value).map {
        unsafe _Unretained(Unmanaged.fromOpaque($0))
      }
    }
    return unsafe Unmanaged<_TypeEntry<Member>>.fromOpaque(
      UnsafeRawPointer(bitPattern: value & ~1).unsafelyUnwrapped
    )
    ._withUnsafeGuaranteedRef { $0.untaggedReference }
  }

  /// The entry of the type in `slot`, unretained (the table keeps it); `nil` for a type with one
  /// untagged member.
  @inlinable @inline(__always)
  package func entry(at slot: Int) -> _Unretained<_TypeEntry<Member>>? {
    let value = map.value(at: slot)
    guard value & 1 == 1 else { return nil }
    return unsafe _Unretained(
      Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: value & ~1).unsafelyUnwrapped))
  }

  /// The untagged member of a type, without touching any reference count.
  @inlinable @inline(__always)
  package func untaggedMember(for identity: ObjectIdentifier) -> _Unretained<Member>? {
    guard let slot = slot(for: identity) else { return nil }
    return untaggedMember(at: slot)
  }

  /// The untagged member of a type, retained.
  ///
  /// Off the hot paths.
  @inlinable
  package func untaggedMember(ofType identity: ObjectIdentifier) -> Member? {
    untaggedMember(for: identity)?.object
  }

  /// The members of one type, or `nil` if the type has none.
  ///
  /// Off the hot paths.
  @inlinable
  package func entry(for identity: ObjectIdentifier) -> _TypeEntry<Member>? {
    guard let slot = slot(for: identity) else { return nil }
    if let entry = entry(at: slot) { return entry.object }
    // A type with one untagged member: an entry made for this (cold) question.
    return untaggedMember(at: slot).map { _TypeEntry(single: $0.object) }
  }

  /// The entry of a type, retained; `nil` for a type with one untagged member.
  ///
  /// Off the hot paths: unlike ``entry(for:)``, it makes no entry for such a type.
  @inlinable
  package func storedEntry(for identity: ObjectIdentifier) -> _TypeEntry<Member>? {
    guard let slot = slot(for: identity) else { return nil }
    return entry(at: slot)?.object
  }

  /// The member tagged exactly `tag` in the type's entry, retained: off the hot paths.
  @inlinable
  package func member(
    _ identity: ObjectIdentifier, taggedAs tag: some Hashable & Sendable
  ) -> Member? {
    guard let slot = slot(for: identity), let entry = entry(at: slot) else { return nil }
    return entry.read { $0.member(tag: tag) }
  }
}

/// Every member of one type.
@safe
@usableFromInline package final class _TypeEntry<Member: _TypeTableMember>: Sendable {
  @usableFromInline package let untagged: Member?
  /// `untagged` again, read by the table without reference counting.
  @usableFromInline let untaggedReference: _Unretained<Member>?
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
    untaggedReference = untagged.map { _Unretained($0) }
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
      if candidate.tag.read({ $0.holds(tag) }) { return candidate.member.object }
    }
    return nil
  }

  /// The member with runtime arguments for a tag and argument tuple type, falling back to the
  /// untagged one; unretained, and whether it fell back.
  @inlinable
  package func argumentMember<Tag: Hashable & Sendable>(
    tag: Tag?, signature: ObjectIdentifier, allowsFallback: Bool
  ) -> (member: _Unretained<Member>, fellBack: Bool)? {
    var untagged: _Unretained<Member>?
    for position in argumentIndex.indices {
      let slot = argumentIndex[position]
      guard slot.signature == signature else { continue }
      if let bound = slot.tag {
        if let tag, bound.read({ $0.holds(tag) }) { return (slot.member, false) }
      } else if tag == nil {
        return (slot.member, false)
      } else {
        untagged = slot.member
      }
    }
    if allowsFallback, let untagged { return (untagged, true) }
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

// MARK: The identity table under it

/// A frozen map from identities (nonzero words, such as a type's metadata address) to value
/// words, read without any lock: the container's lookup table is one, and says what a value
/// word means.
///
/// Open addressing with linear probing, at most a quarter full up to 64 identities and three
/// quarters beyond, filled by Robin Hood insertion: a lookup probes until it finds the identity
/// or an empty slot, and no identity ends up far from its home slot, so no lookup is slow
/// because of where its identity happens to lie in memory. Each slot is two words, so a lookup
/// usually reads a single cache line.
///
/// A small table (up to 64 identities) also picks its hash multiplier: it tries a few and keeps
/// the first that puts every identity in its home slot (or the one that leaves the fewest
/// elsewhere), so that each lookup in a small container reads one slot whatever addresses the
/// linker and the heap gave its types.
///
/// Built once and never changed, so it may be read from any thread.
@safe
@usableFromInline package struct _IdentityTable: Sendable {
  /// One slot: raw memory, so reading it touches no reference count that threads reading at
  /// once would contend for.
  @usableFromInline package struct Slot {
    /// The identity; 0 for an empty slot.
    @usableFromInline package var identity: UInt
    /// What the identity maps to.
    @usableFromInline package var value: UInt

    @inlinable
    init(identity: UInt, value: UInt) {
      self.identity = identity
      self.value = value
    }
  }

  /// The slots, `mask + 1` of them: written only by the initializer, then only read.
  @usableFromInline package nonisolated(unsafe) let slots: UnsafePointer<Slot>
  /// The capacity minus one: a power of two minus one.
  @usableFromInline package let mask: Int
  /// The odd multiplier of the table's Fibonacci-style hash (``home(of:)``).
  @usableFromInline package let multiplier: UInt64
  /// Owns the raw memory above.
  private let memory: Memory

  /// A table of `entries`, whose identities are nonzero and distinct.
  @usableFromInline package init(_ entries: [(identity: UInt, value: UInt)]) {
    self.init(count: entries.count) { insert in
      for entry in entries { insert(entry.identity, entry.value) }
    }
  }

  /// A table of the `count` identities `fill` inserts, each nonzero and distinct: `fill` is
  /// given the function that inserts one, so that a large table makes no list of them first (a
  /// small one gathers them, to choose its multiplier).
  @usableFromInline package init(
    count: Int, _ fill: (_ insert: (_ identity: UInt, _ value: UInt) -> Void) -> Void
  ) {
    // At most a quarter full up to 64 identities (4 KiB at most), so that a lookup in a small
    // container rarely probes twice, whatever addresses its identities happen to have; three
    // quarters beyond, where zeroing and holding the slots costs more than a probe saves.
    let isSmall = count <= Self.smallCount
    var capacity = 8
    while capacity * (isSmall ? 1 : 3) < count * 4 { capacity *= 2 }
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    unsafe slots.initialize(repeating: Slot(identity: 0, value: 0), count: capacity)
    let mask = capacity - 1
    var inserted = 0
    var multiplier = Self.defaultMultiplier
    if isSmall {
      // Gathered first, to choose the multiplier that puts each in its home slot.
      var entries: [(identity: UInt, value: UInt)] = []
      entries.reserveCapacity(count)
      fill { identity, value in
        Self.checkInsertion(identity, inserted: inserted, count: count)
        entries.append((identity, value))
        inserted += 1
      }
      multiplier = Self.multiplier(for: entries, mask: mask)
      for entry in entries {
        unsafe Self.insert(
          Slot(identity: entry.identity, value: entry.value), into: slots, mask: mask,
          multiplier: multiplier)
      }
    } else {
      fill { identity, value in
        Self.checkInsertion(identity, inserted: inserted, count: count)
        unsafe Self.insert(
          Slot(identity: identity, value: value), into: slots, mask: mask,
          multiplier: Self.defaultMultiplier)
        inserted += 1
      }
    }
    unsafe self.slots = unsafe UnsafePointer(slots)
    self.mask = mask
    self.multiplier = multiplier
    memory = unsafe Memory(slots: slots)
    #if JOINERY_INTERNAL_CHECKS
      _checkInvariants(count: inserted)
    #endif
  }

  /// The checks of one insertion: the `inserted + 1`th of `count`.
  @inline(__always)
  private static func checkInsertion(_ identity: UInt, inserted: Int, count: Int) {
    _internalCheck(identity != 0, "an identity of 0 marks an empty slot")
    // A full table would make insertion (and every later miss) probe forever.
    precondition(inserted < count, "more identities inserted than the \(count) announced")
  }

  // Constants are computed properties: a stored `static let` is read through its lazy
  // initializer's check at every use (measured: 27 instructions an insertion).

  /// Up to this many identities, a table is at most a quarter full and picks its multiplier.
  static var smallCount: Int { 64 }

  /// How many multipliers a small table tries before it keeps the best it saw.
  static var multiplierAttempts: Int { 32 }

  /// The multiplier of a large table, and the first a small one tries: 2⁶⁴ divided by the
  /// golden ratio, which spreads the bits of consecutive addresses evenly.
  @inlinable
  package static var defaultMultiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }

  /// The multiplier for a small table of `entries` in `mask + 1` slots.
  ///
  /// The first that gives each identity its own home slot, or, if none of the attempts does,
  /// the one that leaves the fewest away from home. Deterministic: the same identities get the
  /// same multiplier.
  static func multiplier(for entries: [(identity: UInt, value: UInt)], mask: Int) -> UInt64 {
    var best = (multiplier: defaultMultiplier, displaced: Int.max)
    // One bit per slot; a small table has at most 256 slots.
    var taken = [UInt64](repeating: 0, count: (mask + 64) / 64)
    for attempt in 0..<UInt64(multiplierAttempts) {
      // Odd multipliers with well-mixed bits: the default plus odd multiples of another
      // 64-bit constant (from splitmix64).
      let multiplier = defaultMultiplier &+ attempt &* (0xBF58_476D_1CE4_E5B9 as UInt64) | 1
      for word in taken.indices { taken[word] = 0 }
      var displaced = 0
      for entry in entries {
        let index = home(of: entry.identity, multiplier: multiplier, mask: mask)
        let bit: UInt64 = 1 &<< UInt64(index & 63)
        if taken[index >> 6] & bit != 0 {
          displaced += 1
        } else {
          taken[index >> 6] |= bit
        }
      }
      if displaced < best.displaced { best = (multiplier, displaced) }
      if displaced == 0 { break }
    }
    return best.multiplier
  }

  /// Robin Hood insertion: an identity further from its home slot takes the place of one
  /// nearer to its own.
  private static func insert(
    _ slot: Slot, into slots: UnsafeMutablePointer<Slot>, mask: Int, multiplier: UInt64
  ) {
    var item = slot
    var distance = 0
    var index = home(of: item.identity, multiplier: multiplier, mask: mask)
    while unsafe slots[index].identity != 0 {
      unsafe _internalCheck(slots[index].identity != item.identity, "an identity inserted twice")
      let resident =
        unsafe (index &- home(of: slots[index].identity, multiplier: multiplier, mask: mask))
        & mask
      if resident < distance {
        unsafe swap(&item, &slots[index])
        distance = resident
      }
      index = (index &+ 1) & mask
      distance += 1
    }
    unsafe slots[index] = item
  }

  /// The slot holding `identity`, or `nil` if the table does not have it.
  @inlinable @inline(__always)
  package func slot(for identity: UInt) -> Int? {
    var index = home(of: identity)
    while true {
      let found = unsafe slots[index].identity
      if found == identity { return index }
      if found == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// The value word in `slot`.
  @inlinable @inline(__always)
  package func value(at slot: Int) -> UInt { unsafe slots[slot].value }

  /// The slot this table looks for `identity` in first.
  @inlinable @inline(__always)
  package func home(of identity: UInt) -> Int {
    Self.home(of: identity, multiplier: multiplier, mask: mask)
  }

  /// The slot an identity is looked for first, in a table of `mask + 1` slots hashing with
  /// `multiplier` (the default one unless given).
  @inlinable @inline(__always)
  package static func home(
    of identity: UInt, multiplier: UInt64 = defaultMultiplier, mask: Int
  ) -> Int {
    // Identities are aligned addresses; Fibonacci hashing spreads the remaining bits. The
    // product is taken in 64 bits on every platform: a 32-bit `UInt` (watchOS arm64_32) cannot
    // hold the constant, and on 64-bit platforms the conversions are free.
    let bits = UInt64(truncatingIfNeeded: identity &>> 3)
    return Int(truncatingIfNeeded: (bits &* multiplier) &>> 32) & mask
  }

  /// Every identity in the table with its value, in slot order.
  @usableFromInline package var entries: [(identity: UInt, value: UInt)] {
    (0...mask).compactMap { index in
      unsafe slots[index].identity == 0 ? nil : (slots[index].identity, slots[index].value)
    }
  }

  /// Checks the table's contract (see ``_internalCheck(_:_:file:line:)``): a power-of-two
  /// capacity at most three quarters full (a quarter, up to 64 identities), every identity once,
  /// each reachable by probing from its home slot.
  ///
  /// `count`: how many identities were inserted.
  @usableFromInline package func _checkInvariants(count: Int? = nil) {
    let capacity = mask + 1
    _internalCheck(capacity >= 8 && capacity & mask == 0, "capacity \(capacity)")
    var seen = Set<UInt>()
    for index in 0..<capacity where unsafe slots[index].identity != 0 {
      let identity = unsafe slots[index].identity
      _internalCheck(seen.insert(identity).inserted, "an identity in two slots (\(index))")
      var probe = home(of: identity)
      while probe != index {
        unsafe _internalCheck(slots[probe].identity != 0, "slot \(index) is past an empty slot")
        probe = (probe &+ 1) & mask
      }
    }
    _internalCheck(seen.count * 4 <= capacity * 3, "more than three quarters full")
    _internalCheck(
      seen.count > 64 || seen.count * 4 <= capacity, "a small table more than a quarter full")
    _internalCheck(count.map { $0 == seen.count } ?? true, "identities lost")
  }

  /// The raw memory of a table, freed with it.
  @safe
  private final class Memory: Sendable {
    nonisolated(unsafe) let slots: UnsafeMutablePointer<Slot>

    init(slots: UnsafeMutablePointer<Slot>) { unsafe self.slots = unsafe slots }

    deinit { unsafe slots.deallocate() }
  }
}

// MARK: What a container remembers about types it does not bind

/// A small, lock-free, lossy set of types: what a container has learned about a type that is
/// costly to ask the runtime again, such as "not a `Provider` or `Lazy`" (a conformance lookup,
/// about 370 instructions, on every failed resolve and every resolve of an unbound `T?`).
///
/// Direct-mapped: each type has one word, chosen from its metadata address; a type inserted
/// later into the same word evicts the earlier one. So ``contains(_:)`` may forget a type, and
/// the caller asks the runtime again, but it never says `true` for a type that was not
/// inserted: a word holds a whole metadata address and is compared with the whole address.
/// Each word is read and written atomically; a race only loses an insertion.
@safe
@usableFromInline package final class _TypeMemo: Sendable {
  /// A power of two.
  @usableFromInline package static let capacity = 64
  /// Each word read and written only atomically.
  @usableFromInline nonisolated(unsafe) let words: UnsafeMutablePointer<UInt>

  /// An empty memo.
  @usableFromInline package init() {
    unsafe words = .allocate(capacity: _TypeMemo.capacity)
    unsafe words.initialize(repeating: 0, count: _TypeMemo.capacity)
  }

  deinit {
    unsafe words.deinitialize(count: _TypeMemo.capacity)
    unsafe words.deallocate()
  }

  /// The index of the word a type's metadata `address` maps to, in a table of `capacity`
  /// words: the one hash both memos use.
  @inlinable @inline(__always)
  package static func index(of address: UInt) -> Int {
    // Metadata is at least 8-byte aligned: the low bits say nothing.
    Int(truncatingIfNeeded: (address >> 3 ^ address >> 9) & UInt(capacity - 1))
  }

  @inlinable @inline(__always)
  func word(for address: UInt) -> UnsafeMutablePointer<UInt> {
    unsafe words + Self.index(of: address)
  }

  /// Whether `type` was inserted and is still remembered.
  @inlinable @inline(__always)
  package func contains(_ type: any Any.Type) -> Bool {
    let address = UInt(bitPattern: ObjectIdentifier(type))
    return unsafe joinery_load_relaxed(word(for: address)) == address
  }

  /// Remembers `type`, evicting the type that shared its word, if any.
  @usableFromInline package func insert(_ type: any Any.Type) {
    let address = UInt(bitPattern: ObjectIdentifier(type))
    unsafe joinery_store_relaxed(word(for: address), address)
  }
}

/// A small, lock-free, lossy map from types to values computed once per type, such as the
/// `_OptionalDependency` conformance of an `Optional` (a conformance lookup on every resolve of
/// a `T?` otherwise).
///
/// Direct-mapped, like ``_TypeMemo``, but first come, first kept: a word holds an entry object
/// that is never replaced, so a reader may use an entry it loaded without any reference count
/// and without racing a writer. A type whose word is taken by another is not remembered (the
/// caller computes its value each time). Entries are released with the map.
@safe
@usableFromInline package final class _TypeMap<Value: Sendable>: Sendable {
  @usableFromInline final class Entry: Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let value: Value

    @usableFromInline init(type: ObjectIdentifier, value: Value) {
      self.type = type
      self.value = value
    }
  }

  /// Each word read and written only atomically.
  @usableFromInline nonisolated(unsafe) let words: UnsafeMutablePointer<UInt>

  /// An empty map.
  @usableFromInline package init() {
    unsafe words = .allocate(capacity: _TypeMemo.capacity)
    unsafe words.initialize(repeating: 0, count: _TypeMemo.capacity)
  }

  deinit {
    for index in 0..<_TypeMemo.capacity {
      if let entry = unsafe UnsafeRawPointer(bitPattern: words[index]) {
        unsafe Unmanaged<Entry>.fromOpaque(entry).release()
      }
    }
    unsafe words.deinitialize(count: _TypeMemo.capacity)
    unsafe words.deallocate()
  }

  @inlinable @inline(__always)
  func word(for type: ObjectIdentifier) -> UnsafeMutablePointer<UInt> {
    unsafe words + _TypeMemo.index(of: UInt(bitPattern: type))
  }

  /// The value remembered for `type`, if any.
  @inlinable @inline(__always)
  package func value(for type: any Any.Type) -> Value? {
    let identity = ObjectIdentifier(type)
    // Acquiring: the entry's fields were written before its address was published.
    guard let entry = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(word(for: identity)))
    else { return nil }
    return unsafe Unmanaged<Entry>.fromOpaque(entry)._withUnsafeGuaranteedRef {
      $0.type == identity ? $0.value : nil
    }
  }

  /// Remembers `value` for `type` if its word is free.
  @usableFromInline package func insert(_ value: Value, for type: any Any.Type) {
    let identity = ObjectIdentifier(type)
    let word = unsafe word(for: identity)
    guard unsafe joinery_load_acquire(word) == 0 else { return }
    let entry = unsafe Unmanaged.passRetained(Entry(type: identity, value: value))
    if unsafe !joinery_compare_exchange(word, 0, UInt(bitPattern: entry.toOpaque())) {
      unsafe entry.release()
    }
  }
}

/// An object not retained by its holder: for objects that something else keeps alive for as
/// long as the holder is used (a resolver's container, a container's bindings).
///
/// The contract is its maker's: a handle is made only on an object that something else keeps
/// alive for longer than any reader holds the handle (the lookup table makes them on the
/// members it owns). Reading it costs no reference counting, which is what the resolve path
/// needs when many threads resolve through the same objects at once.
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
  ///
  /// Transparent in a debug build, so that each level of a chain is one frame fewer there; not
  /// in a release build, whose compiler crashes on it (and inlines it anyway).
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
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

extension _Unretained: Sendable where Object: Sendable {}
