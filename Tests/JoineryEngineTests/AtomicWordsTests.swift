import Testing

@testable import JoineryEngine

@Suite("Atomic words")
struct AtomicWordsTests {
  /// A holder as the engine's users declare one: the words first.
  final class Holder: _AtomicWordsHolder, @unchecked Sendable {
    var words: (UInt, UInt, UInt) = (0, 0, 0)
    let made = Counter()

    init() { _checkAtomicWordsLayout(&words) }

    deinit {
      _releaseLazyLock(1)
      _releaseLazyObject(2, as: Counted.self)
    }
  }

  /// Counts the objects made and the objects still alive.
  final class Counter: @unchecked Sendable {
    let lock = _Lock.make()
    var made = 0
    var alive = 0
    func change(made: Int = 0, alive: Int) {
      lock.withLock {
        self.made += made
        self.alive += alive
      }
    }
  }

  final class Counted {
    let counter: Counter
    init(_ counter: Counter) {
      self.counter = counter
      counter.change(made: 1, alive: 1)
    }
    deinit { counter.change(alive: -1) }
  }

  @Test("Words are read and written where the holder declared them")
  func layout() {
    let holder = Holder()
    holder._storeReleasing(0, 7)
    #expect(holder._loadAcquiring(0) == 7)
    #expect(holder.words.0 == 7)
    holder._setReleasing(0, 8)
    #expect(holder._loadRelaxed(0) == 15)
    #expect(holder._add(0, 1) == 16)
    #expect(holder.words.1 == 0 && holder.words.2 == 0)
  }

  @Test("Eight threads adding to one word lose no addition")
  func concurrentAdds() {
    let holders = Race.run(threads: 8, rounds: Race.rounds(100)) { _ in
      Holder()
    } work: {
      holder, _ in
      for _ in 0..<1_000 { _ = holder._add(0, 1) }
      return holder
    }
    #expect(holders.allSatisfy { $0._loadAcquiring(0) == 8_000 })
  }

  @Test("A lazy object is one object for every racing thread; a loser's is released")
  func lazyObjectOnce() {
    let seen = Race.run(threads: 8, rounds: Race.rounds(200)) { _ in
      Holder()
    } work: {
      holder, _ in
      (holder, ObjectIdentifier(holder._lazyObject(2) { Counted(holder.made) }))
    }
    for index in stride(from: 0, to: seen.count, by: 8) {
      let round = seen[index..<index + 8]
      #expect(Set(round.map(\.1)).count == 1)
      let counter = round.first!.0.made
      #expect(counter.lock.withLock { counter.alive } == 1)
      #expect(round.first!.0._existingLazyObject(2, as: Counted.self) != nil)
    }
  }

  @Test("A lazy lock is one lock for every racing thread, and its low bits stay free")
  func lazyLockOnce() {
    let seen = Race.run(threads: 8, rounds: Race.rounds(200)) { _ -> Holder in
      let holder = Holder()
      holder._storeRelaxed(1, 0b101)
      return holder
    } work: { (holder: Holder, _: Int) in
      (holder, ObjectIdentifier(holder._lazyLock(1)))
    }
    for index in stride(from: 0, to: seen.count, by: 8) {
      let round = seen[index..<index + 8]
      #expect(Set(round.map(\.1)).count == 1)
      let holder = round.first!.0
      #expect(holder._loadAcquiring(1) & 15 == 0b101)
      #expect(holder._existingLock(1).map(ObjectIdentifier.init) == round.first!.1)
    }
  }

  @Test("A holder without a lazy object or lock reports none")
  func nothingMade() {
    let holder = Holder()
    #expect(holder._existingLock(1) == nil)
    #expect(holder._existingLazyObject(2, as: Counted.self) == nil)
  }
}
