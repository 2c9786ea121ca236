import Testing

@testable import JoineryEngine

@Suite("Owners and thread identities")
struct OwnerTests {
  final class Thing {
    let name: String
    init(_ name: String) { self.name = name }
  }

  @Test("An owner is its object's identity: equal for the same object, distinct for others")
  func identity() {
    let first = Thing("first")
    let second = Thing("second")
    #expect(_Owner(first) == _Owner(first))
    #expect(_Owner(first) != _Owner(second))
    #expect(_Owner(first).bits == UInt(bitPattern: ObjectIdentifier(first)))
    // Objects are 16-byte aligned, which the chain filter and the graph index rely on.
    #expect(_Owner(first).bits % 16 == 0)
    #expect(unsafe _Owner(second).object(as: Thing.self).name == "second")
  }

  @Test("An owner does not retain its object")
  func unretained() {
    weak var released: Thing?
    var owner: _Owner?
    do {
      let thing = Thing("short-lived")
      released = thing
      owner = _Owner(thing)
    }
    #expect(released == nil)
    #expect(owner != nil)
  }

  @Test("A thread's identity is non-zero, the same for each call on it, and differs across threads")
  func threadIdentity() {
    let here = _ThreadIdentity.current
    #expect(here != 0)
    #expect(_ThreadIdentity.current == here)
    let there = Race.onAnotherThread { _ThreadIdentity.current }
    #expect(there != 0)
    #expect(there != here)
  }

  @Test("A borrowed tag copies the caller's value out, of its own type, to outlive the request")
  func borrowedTag() {
    struct Region: Hashable, Sendable { let code: String }
    let copy = withUnsafePointer(to: Region(code: "eu")) { pointer in
      unsafe _BorrowedTag(value: UnsafeRawPointer(pointer), type: Region.self).copy
    }
    #expect(copy as? Region == Region(code: "eu"))
    let type = withUnsafePointer(to: 42) { pointer in
      unsafe _BorrowedTag(value: UnsafeRawPointer(pointer), type: Int.self).type
    }
    #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
  }
}
