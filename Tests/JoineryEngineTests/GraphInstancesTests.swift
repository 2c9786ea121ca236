import Testing

@testable import JoineryEngine

@Suite("Graph instances")
struct GraphInstancesTests {
  /// Wider than a slot's inline buffer: stored in an allocation of its own.
  struct Wide {
    var object: Tracked
    var padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
  }

  /// Distinct owner identities, as the resolver's bindings are: addresses of live objects.
  final class Owner {}

  /// Stores `count` instances made by `make`, one per owner, finds each and checks the contract,
  /// then ends; returns what each lookup found.
  func storeAndFind<T>(
    _ count: Int, onStack: Bool, _ make: (Int) -> T, read: (T) -> Int
  ) -> [Int] {
    let owners = (0..<count).map { _ in Owner() }
    let layout = _ValueLayout(of: T.self)
    func run(_ slots: UnsafeMutablePointer<_GraphSlot>?) -> [Int] {
      var graph = _GraphInstances(stackSlots: slots)
      for (number, owner) in owners.enumerated() {
        var value = make(number)
        withUnsafeMutablePointer(to: &value) { pointer in
          graph.store(
            copyOf: layout.slot(at: UnsafeMutableRawPointer(pointer)),
            owner: _Owner(owner), layout: layout)
        }
      }
      graph._checkInvariants()
      var stored = 0
      graph.forEachInstance { _, _ in stored += 1 }
      #expect(stored == count)
      let found = owners.map { owner in
        graph.instance(for: _Owner(owner))
          .map { read($0.load(as: T.self)) } ?? -1
      }
      graph.end()
      return found
    }
    return onStack ? _GraphInstances.withStackSlots { run($0) } : run(nil)
  }

  @Test(
    "Every stored instance is found by its owner, on the stack and past it, and end() destroys all",
    arguments: [0, 1, 4, 5, 40, 5_000], [false, true])
  func storeFindAndEnd(count: Int, onStack: Bool) {
    let census = Census()
    let objects = storeAndFind(count, onStack: onStack, { Tracked($0, census) }, read: \.number)
    #expect(objects == Array(0..<count))
    #expect(census.alive == 0)
    let wide = storeAndFind(
      count, onStack: onStack, { Wide(object: Tracked($0, census)) }, read: \.object.number)
    #expect(wide == Array(0..<count))
    #expect(census.alive == 0)
    let strings = storeAndFind(
      count, onStack: onStack, { String(repeating: "x", count: $0 % 50) }, read: \.count)
    #expect(strings == (0..<count).map { $0 % 50 })
  }

  @Test("An owner stored twice keeps its first instance; both copies are destroyed")
  func firstInstanceStays() {
    let census = Census()
    let owner = Owner()
    let key = _Owner(owner)
    let layout = _ValueLayout(of: Tracked.self)
    // Past the inline slots too, where the index keeps the first owner found.
    let fillers = (0..<6).map { _ in Owner() }
    var graph = _GraphInstances(stackSlots: nil)
    for number in [1, 2] {
      var object = Tracked(number, census)
      withUnsafeMutablePointer(to: &object) {
        graph.store(
          copyOf: layout.slot(at: UnsafeMutableRawPointer($0)), owner: key, layout: layout)
      }
    }
    for filler in fillers {
      var object = Tracked(0, census)
      withUnsafeMutablePointer(to: &object) {
        graph.store(
          copyOf: layout.slot(at: UnsafeMutableRawPointer($0)),
          owner: _Owner(filler), layout: layout)
      }
    }
    var again = Tracked(3, census)
    withUnsafeMutablePointer(to: &again) {
      graph.store(copyOf: layout.slot(at: UnsafeMutableRawPointer($0)), owner: key, layout: layout)
    }
    #expect(graph.instance(for: key)?.load(as: Tracked.self).number == 1)
    graph._checkInvariants()
    #expect(census.alive == 9)
    graph.end()
    #expect(census.alive == 1)
    withExtendedLifetime(again) {}
  }

  @Test("50,000 instances in one resolution are stored and found")
  func manyInstances() {
    // The overflow's chunks double and its index is flat: nothing recurses per instance.
    let found = storeAndFind(50_000, onStack: true, { $0 }, read: { $0 })
    #expect(found == Array(0..<50_000))
  }
}
