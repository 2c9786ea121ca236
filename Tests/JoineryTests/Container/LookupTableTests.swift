import JoineryEngine
import Testing

@testable import Joinery

/// Thousands of distinct types without generated source: `Marker<(((), D3), D1)>`…
private final class Marker<Key>: Sendable { init() {} }
private enum D0 {}
private enum D1 {}
private enum D2 {}
private enum D3 {}
private enum D4 {}
private enum D5 {}
private enum D6 {}
private enum D7 {}
private enum D8 {}
private enum D9 {}

/// Binds `count` distinct marker types (at most 10,000).
private struct ManyTypes: Assembly {
  let count: Int

  func register(in registrar: inout Registrar) {
    var remaining = count
    func level<Prefix>(_: Prefix.Type, depth: Int) {
      guard remaining > 0 else { return }
      if depth == 0 {
        registrar.bind(Marker<Prefix>.self, lifetime: .persistent) { _ in Marker<Prefix>() }
        remaining -= 1
        return
      }
      level((Prefix, D0).self, depth: depth - 1)
      level((Prefix, D1).self, depth: depth - 1)
      level((Prefix, D2).self, depth: depth - 1)
      level((Prefix, D3).self, depth: depth - 1)
      level((Prefix, D4).self, depth: depth - 1)
      level((Prefix, D5).self, depth: depth - 1)
      level((Prefix, D6).self, depth: depth - 1)
      level((Prefix, D7).self, depth: depth - 1)
      level((Prefix, D8).self, depth: depth - 1)
      level((Prefix, D9).self, depth: depth - 1)
    }
    level(Void.self, depth: 4)
  }
}

@Suite("The lookup table")
struct LookupTableTests {
  @Test("Every one of 10,000 types sits within a few slots of its home, and resolves")
  func displacementStaysSmall() throws {
    let container = try ContainerBuilder(ManyTypes(count: 10_000)).build()
    let table = container.table.map
    var longest = 0
    var occupied = 0
    for index in 0...table.mask where table.slots[index].identity != 0 {
      occupied += 1
      let home = table.home(of: table.slots[index].identity)
      longest = max(longest, (index - home) & table.mask)
    }
    #expect(occupied == 10_000)
    // Robin Hood placement keeps this near 8 at this load (61%); plain linear probing leaves
    // some type 25 to 30 slots from home, and its resolve slower than the others.
    #expect(longest <= 16)
    typealias Last = Marker<(((((), D9), D9), D9), D9)>
    let last = try container.resolve(Last.self)
    #expect(try container.resolve(Last.self) === last)
  }
}
