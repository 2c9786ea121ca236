import Testing

@testable import JoineryEngine

@Suite("Identity table")
struct IdentityTableTests {
  /// `count` distinct, 16-byte aligned identities, as object and metadata addresses are,
  /// from a seeded generator: the same run every time.
  static func identities(_ count: Int, seed: UInt64) -> [UInt] {
    var state = seed
    var made = Set<UInt>()
    while made.count < count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let identity = UInt(truncatingIfNeeded: state >> 20) & ~15
      if identity != 0 { made.insert(identity) }
    }
    return made.sorted()
  }

  @Test(
    "Every identity finds its own value; an identity not inserted finds nothing",
    arguments: [
      0, 1, 6, 7, 100, 5_000,
    ])
  func lookups(count: Int) {
    let inserted = Self.identities(count, seed: UInt64(count) + 1)
    let table = _IdentityTable(inserted.enumerated().map { (identity: $1, value: UInt($0)) })
    table._checkInvariants(count: count)
    for (position, identity) in inserted.enumerated() {
      let slot = table.slot(for: identity)
      #expect(slot.map(table.value(at:)) == UInt(position))
    }
    let absent = Set(Self.identities(200, seed: 99)).subtracting(inserted)
    #expect(absent.allSatisfy { table.slot(for: $0) == nil })
    #expect(table.entries.count == count)
  }

  @Test("At most three quarters full, and no identity far from its home slot")
  func loadAndDisplacement() {
    for count in [6, 48, 384, 3_000] {
      let inserted = Self.identities(count, seed: 7)
      let table = _IdentityTable(inserted.map { (identity: $0, value: $0) })
      let capacity = table.mask + 1
      #expect(count * 4 <= capacity * 3)
      let distances = inserted.map { identity in
        (table.slot(for: identity)! &- table.home(of: identity))
          & table.mask
      }
      // Robin Hood keeps the mean probe short at this load; linear probing without it averages
      // about 2.5 extra probes at three quarters full.
      let mean = Double(distances.reduce(0, +)) / Double(count)
      #expect(mean < 2.5, "mean displacement \(mean) with \(count) identities")
    }
  }

  @Test(
    "A small table is at most a quarter full: a lookup rarely probes twice, wherever its keys lie")
  func smallTables() {
    for count in [1, 9, 30, 64] {
      var displacement = 0
      for seed in 1...200 {
        let inserted = Self.identities(count, seed: UInt64(seed) &* 7_919)
        let table = _IdentityTable(inserted.map { (identity: $0, value: $0) })
        #expect(count * 4 <= table.mask + 1, "\(count) identities in \(table.mask + 1) slots")
        displacement += inserted.reduce(0) { total, identity in
          total
            + ((table.slot(for: identity)! &- table.home(of: identity))
              & table.mask)
        }
      }
      // Linear probing at a quarter full averages about 0.17 extra probes with one fixed
      // multiplier; a small table picks its multiplier, and leaves far fewer.
      let mean = Double(displacement) / Double(count * 200)
      #expect(mean < 0.1, "mean displacement \(mean) with \(count) identities")
    }
  }

  @Test("A small container's types each sit in their home slot: one read per lookup")
  func smallTablesAtHome() {
    for count in [1, 2, 8, 12] {
      for seed in 1...200 {
        let inserted = Self.identities(count, seed: UInt64(seed) &* 104_729)
        let table = _IdentityTable(inserted.map { (identity: $0, value: $0) })
        let away = inserted.filter { table.slot(for: $0) != table.home(of: $0) }
        #expect(away.isEmpty, "\(away.count) of \(count) identities away from home (seed \(seed))")
        let again = _IdentityTable(inserted.map { (identity: $0, value: $0) })
        #expect(again.multiplier == table.multiplier, "the same identities, the same multiplier")
      }
    }
  }

  @Test("Sixteen-byte strides (objects allocated one after another) spread over the slots")
  func strides() {
    let inserted = (1...1_000).map { UInt(0x10_0000 + $0 * 16) }
    let table = _IdentityTable(inserted.map { (identity: $0, value: 1) })
    let worst = inserted.map { identity in
      (table.slot(for: identity)! &- table.home(of: identity))
        & table.mask
    }.max()!
    #expect(worst < 16)
  }
}
