import Testing

@testable import JoineryEngine

@Suite("Resolution chains")
struct ChainLinkTests {
  /// A chain kept in an array, as frames keep theirs on a stack: level `i`'s parent is `i - 1`.
  struct Chain {
    var links: [_ChainLink] = []

    mutating func push(_ owner: _Owner) {
      links.append(links.last.map { _ChainLink(owner, below: $0) } ?? _ChainLink(first: owner))
    }

    func contains(_ owner: _Owner) -> Bool {
      guard let last = links.indices.last else { return false }
      return _ChainLink.chain(
        from: last, contains: owner, link: { links[$0] }, parent: { $0 > 0 ? $0 - 1 : nil })
    }

    func admit(
      _ owner: _Owner, maximumDepth: Int = 1_000,
      stackLimit: UnsafeMutablePointer<UInt>? = nil
    ) -> _ChainLink.Verdict {
      links.last!.admit(owner, maximumDepth: maximumDepth, stackLimit: stackLimit) {
        contains($0)
      }
    }
  }

  /// Distinct owners: addresses of live objects, as bindings are.
  final class Owner {}
  let owners = (0..<300).map { _ in Owner() }
  func address(_ index: Int) -> _Owner {
    _Owner(owners[index])
  }

  @Test("Distinct owners are admitted level after level; depths count from 1")
  func distinctOwners() {
    var chain = Chain()
    for index in 0..<200 {
      if index > 0 { #expect(chain.admit(address(index)) == .clear) }
      chain.push(address(index))
      #expect(chain.links.last!.depth == index + 1)
      if index > 0 { chain.links[index]._checkInvariants(below: chain.links[index - 1]) }
    }
  }

  @Test(
    "An owner already in the chain is a cycle, at every depth and cycle length",
    arguments: [1, 2, 7, 16, 17, 40, 150], [1, 3, 10, 60])
  func cycles(prefix: Int, length: Int) {
    // `prefix` distinct levels, then a cycle of `length` owners that repeats. Past the first 16
    // levels the test compares with the owner at the last power-of-two depth only (constant
    // work per level), so the cycle is seen once a checkpoint falls inside it and it comes round
    // again: by twice the depth at which it started (or its length), plus one length.
    let bound = 2 * max(prefix + 1, length, _ChainLink.fullCheckDepth) + length
    var chain = Chain()
    for index in 0..<prefix { chain.push(address(index)) }
    var found: Int?
    for step in 0..<bound {
      let owner = address(prefix + step % length)
      if chain.admit(owner) == .cycle {
        found = step
        break
      }
      chain.push(owner)
    }
    #expect(found != nil, "no cycle seen in \(bound) levels")
    // The first repetition is seen at once while the chain is short enough to be walked whole.
    if prefix + length <= _ChainLink.fullCheckDepth { #expect(found == length) }
  }

  @Test("Past the maximum depth: too deep, unless the owner is in the chain (a cycle)")
  func depthLimit() {
    var chain = Chain()
    for index in 0..<10 { chain.push(address(index)) }
    #expect(chain.admit(address(10), maximumDepth: 10) == .tooDeep(stackExhausted: false))
    #expect(chain.admit(address(3), maximumDepth: 10) == .cycle)
    #expect(chain.admit(address(10), maximumDepth: 11) == .clear)
  }

  @Test("A stack limit is read once, then compared at each level")
  func stackLimit() {
    var chain = Chain()
    chain.push(address(0))
    var limit: UInt = 0
    #expect(chain.admit(address(1), stackLimit: &limit) == .clear)
    #expect(limit != 0 && limit < _ThreadState.stackPosition)
    // A limit above the current position: the stack is treated as used up.
    var exhausted = UInt.max
    #expect(chain.admit(address(1), stackLimit: &exhausted) == .tooDeep(stackExhausted: true))
    #expect(chain.admit(address(0), stackLimit: &exhausted) == .cycle)
  }

  @Test("A depth-0 marker holds no owner: what it starts is admitted as its first level")
  func marker() {
    let marker = _ChainLink(first: address(0), depth: 0)
    #expect(!marker.mayContain(address(0)))
    let first = _ChainLink(address(0), below: marker)
    #expect(first.depth == 1 && first.mayContain(address(0)))
    first._checkInvariants(below: marker)
  }
}
