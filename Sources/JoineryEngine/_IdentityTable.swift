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
/// Built once and never changed, so it may be read from any thread. (Unchecked `Sendable`: the
/// raw memory is written only by the initializer.)
@safe
public struct _IdentityTable: @unchecked Sendable {
  /// One slot: raw memory, so reading it touches no reference count that threads reading at
  /// once would contend for.
  public struct Slot {
    /// The identity; 0 for an empty slot.
    public var identity: UInt
    /// What the identity maps to.
    public var value: UInt

    @inlinable
    init(identity: UInt, value: UInt) {
      self.identity = identity
      self.value = value
    }
  }

  /// The slots, `mask + 1` of them.
  public let slots: UnsafePointer<Slot>
  /// The capacity minus one: a power of two minus one.
  public let mask: Int
  /// Owns the raw memory above.
  private let memory: Memory

  /// A table of `entries`, whose identities are nonzero and distinct.
  public init(_ entries: [(identity: UInt, value: UInt)]) {
    self.init(count: entries.count) { insert in
      for entry in entries { insert(entry.identity, entry.value) }
    }
  }

  /// A table of the `count` identities `fill` inserts, each nonzero and distinct: `fill` is
  /// given the function that inserts one, so that no list of them is made first.
  public init(count: Int, _ fill: (_ insert: (_ identity: UInt, _ value: UInt) -> Void) -> Void) {
    // At most a quarter full up to 64 identities (4 KiB at most), so that a lookup in a small
    // container rarely probes twice, whatever addresses its identities happen to have; three
    // quarters beyond, where zeroing and holding the slots costs more than a probe saves.
    let quartersFull = count <= 64 ? 1 : 3
    var capacity = 8
    while capacity * quartersFull < count * 4 { capacity *= 2 }
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    unsafe slots.initialize(repeating: Slot(identity: 0, value: 0), count: capacity)
    let mask = capacity - 1
    var inserted = 0
    fill { identity, value in
      _internalCheck(identity != 0, "an identity of 0 marks an empty slot")
      // A full table would make insertion (and every later miss) probe forever.
      precondition(inserted < count, "more identities inserted than the \(count) announced")
      unsafe Self.insert(Slot(identity: identity, value: value), into: slots, mask: mask)
      inserted += 1
    }
    unsafe self.slots = unsafe UnsafePointer(slots)
    self.mask = mask
    memory = unsafe Memory(slots: slots)
    #if JOINERY_INTERNAL_CHECKS
      _checkInvariants(count: inserted)
    #endif
  }

  /// Robin Hood insertion: an identity further from its home slot takes the place of one
  /// nearer to its own.
  private static func insert(_ slot: Slot, into slots: UnsafeMutablePointer<Slot>, mask: Int) {
    var item = slot
    var distance = 0
    var index = home(of: item.identity, mask: mask)
    while unsafe slots[index].identity != 0 {
      unsafe _internalCheck(slots[index].identity != item.identity, "an identity inserted twice")
      let resident = unsafe (index &- home(of: slots[index].identity, mask: mask)) & mask
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
  public func slot(for identity: UInt) -> Int? {
    var index = Self.home(of: identity, mask: mask)
    while true {
      let found = unsafe slots[index].identity
      if found == identity { return index }
      if found == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// The value word in `slot`.
  @inlinable @inline(__always)
  public func value(at slot: Int) -> UInt { unsafe slots[slot].value }

  /// The slot an identity is looked for first, in a table of `mask + 1` slots.
  @inlinable @inline(__always)
  public static func home(of identity: UInt, mask: Int) -> Int {
    // Identities are aligned addresses; Fibonacci hashing spreads the remaining bits. The
    // product is taken in 64 bits on every platform: a 32-bit `UInt` (watchOS arm64_32) cannot
    // hold the constant, and on 64-bit platforms the conversions are free.
    let bits = UInt64(truncatingIfNeeded: identity &>> 3)
    return Int(truncatingIfNeeded: (bits &* (0x9E37_79B9_7F4A_7C15 as UInt64)) &>> 32) & mask
  }

  /// Every identity in the table with its value, in slot order.
  public var entries: [(identity: UInt, value: UInt)] {
    (0...mask).compactMap { index in
      unsafe slots[index].identity == 0 ? nil : (slots[index].identity, slots[index].value)
    }
  }

  /// Checks the table's contract (see ``_internalCheck(_:_:file:line:)``): a power-of-two
  /// capacity at most three quarters full (a quarter, up to 64 identities), every identity once,
  /// each reachable by probing from its home slot.
  ///
  /// `count`: how many identities were inserted.
  public func _checkInvariants(count: Int? = nil) {
    let capacity = mask + 1
    _internalCheck(capacity >= 8 && capacity & mask == 0, "capacity \(capacity)")
    var seen = Set<UInt>()
    for index in 0..<capacity where unsafe slots[index].identity != 0 {
      let identity = unsafe slots[index].identity
      _internalCheck(seen.insert(identity).inserted, "an identity in two slots (\(index))")
      var probe = Self.home(of: identity, mask: mask)
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
