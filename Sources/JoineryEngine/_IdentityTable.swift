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
