import Testing

@testable import JoineryEngine

@Suite("Objects a root state owns")
struct OwnedTests {
  @Test("Nothing is made until asked for, made once, and released when the owner ends")
  func madeOnceReleasedAtEnd() {
    let census = Census()
    do {
      var owned = _Owned<Tracked>()
      let emptyAtFirst = owned.isEmpty
      let readAtFirst = owned.read { $0.number }
      #expect(emptyAtFirst && readAtFirst == nil)
      let first = owned.readMaking({ Tracked(1, census) }, { $0.number })
      let second = owned.readMaking({ Tracked(2, census) }, { $0.number })
      #expect(first == 1 && second == 1)
      #expect(census.made == 1 && census.alive == 1)
      let read = owned.read { $0.number }
      let emptyAfter = owned.isEmpty
      #expect(read == 1 && !emptyAfter)
    }
    #expect(census.alive == 0)
  }

  @Test("Replacing releases the object kept before; taking hands the object over")
  func replaceAndTake() {
    let census = Census()
    var taken: Tracked?
    do {
      var owned = _Owned<Tracked>()
      owned.replace(with: Tracked(1, census))
      owned.replace(with: Tracked(2, census))
      let kept = owned.read { $0.number }
      #expect(census.alive == 1 && kept == 2)
      taken = owned.take()
      let emptyAfterTake = owned.isEmpty
      let takenAgain = owned.take()
      #expect(emptyAfterTake && takenAgain == nil)
    }
    // The owner ended without releasing what it handed over.
    #expect(taken?.number == 2 && census.alive == 1)
    taken = nil
    #expect(census.alive == 0)
  }

  @Test("A resolution's root owns its state until the lending call returns")
  func rootOwnsItsState() {
    struct State: ~Copyable {
      var owned = _Owned<Tracked>()
    }
    final class Level {}
    let census = Census()
    let owner = Level()
    do {
      var root = _ChainRoot(State())
      let number = _ChainRootHandle<Level, Int, State>.lend(&root) { root in
        root.first(owner, level: 7) { level in
          #expect(level.level == 7 && level.depth == 1)
          return level.root.state.owned.readMaking({ Tracked(3, census) }, { $0.number })
        }
      }
      #expect(number == 3 && census.alive == 1)
    }
    #expect(census.alive == 0)
  }
}
