import Testing

@testable import JoineryEngine

/// A tag box for the table's tests: a string, matched by value.
final class TestTag: _TypeTableTag {
  let value: String
  init(_ value: String) { self.value = value }
  var hash: Int { Self.hash(of: value) }
  func holds<Value: Hashable & Sendable>(_ value: Value) -> Bool {
    (value as? String) == self.value
  }
  static func hash<Value: Hashable & Sendable>(of value: Value) -> Int { value.hashValue }
}

/// A member for the table's tests: what a binding tells the table, and a name to check by.
final class TestMember: _TypeTableMember {
  let name: String
  let tableType: ObjectIdentifier
  let tableTag: TestTag?
  let tableSignature: ObjectIdentifier?

  init(_ name: String, _ type: Any.Type, tag: String? = nil, arguments: Any.Type? = nil) {
    self.name = name
    tableType = ObjectIdentifier(type)
    tableTag = tag.map(TestTag.init)
    tableSignature = arguments.map(ObjectIdentifier.init)
  }
}

@Suite("Type table")
struct TypeTableTests {
  struct Alone {}
  struct Tagged {}
  struct Many {}
  struct Absent {}

  @Test("An untagged member alone needs no entry; tags and arguments are found in the entry")
  func lookups() throws {
    let members = [
      TestMember("alone", Alone.self),
      TestMember("tagged-untagged", Tagged.self),
      TestMember("tagged-a", Tagged.self, tag: "a"),
      TestMember("args", Tagged.self, arguments: (Int, String).self),
      TestMember("args-b", Tagged.self, tag: "b", arguments: (Int, String).self),
    ]
    let table = _TypeTable(members)
    table._checkInvariants(typeCount: 2)
    #expect(table.untaggedMember(ofType: ObjectIdentifier(Alone.self))?.name == "alone")
    #expect(table.storedEntry(for: ObjectIdentifier(Alone.self)) == nil)
    #expect(table.entry(for: ObjectIdentifier(Alone.self))?.allMembers.map(\.name) == ["alone"])
    #expect(table.untaggedMember(ofType: ObjectIdentifier(Absent.self)) == nil)
    #expect(table.entry(for: ObjectIdentifier(Absent.self)) == nil)

    let entry = try #require(table.storedEntry(for: ObjectIdentifier(Tagged.self)))
    #expect(table.untaggedMember(ofType: ObjectIdentifier(Tagged.self))?.name == "tagged-untagged")
    #expect(entry.member(tag: "a")?.name == "tagged-a")
    #expect(entry.member(tag: "z") == nil)
    #expect(table.member(ObjectIdentifier(Tagged.self), taggedAs: "a")?.name == "tagged-a")
    #expect(entry.allMembers.map(\.name) == ["tagged-untagged", "tagged-a", "args", "args-b"])

    let signature = ObjectIdentifier((Int, String).self)
    func argument(_ tag: String?, fallback: Bool) -> (String, Bool)? {
      entry.argumentMember(tag: tag, signature: signature, allowsFallback: fallback).map {
        ($0.member.object.name, $0.fellBack)
      }
    }
    #expect(argument(nil, fallback: false)! == ("args", false))
    #expect(argument("b", fallback: false)! == ("args-b", false))
    #expect(argument("c", fallback: false) == nil)
    #expect(argument("c", fallback: true)! == ("args", true))
    #expect(
      entry.argumentMember(
        tag: String?.none, signature: ObjectIdentifier(Int.self), allowsFallback: true) == nil)
  }

  @Test("Past the linear limit, tags are found through their hash, in any number")
  func manyTags() {
    let count = 500
    let members = (0..<count).map { TestMember("m\($0)", Many.self, tag: "t\($0)") }
    let table = _TypeTable(members)
    let entry = table.storedEntry(for: ObjectIdentifier(Many.self))
    #expect(entry?.tagged.count == count)
    for index in stride(from: 0, to: count, by: 37) {
      #expect(entry?.member(tag: "t\(index)")?.name == "m\(index)")
    }
    #expect(entry?.member(tag: "t\(count)") == nil)
    #expect(table.untaggedMember(ofType: ObjectIdentifier(Many.self)) == nil)
  }

  @Test("Groups keep first-seen order, and each group its element order")
  func groups() {
    let identities: [UInt] = [16, 32, 16, 48, 32, 16]
    let groups = _TypeGroups(count: identities.count) { identities[$0] }
    #expect(groups.starts == [0, 1, 3])
    #expect(groups.members(from: 0) == [0, 2, 5])
    #expect(groups.members(from: 1) == [1, 4])
    #expect(groups.isAlone(3))
    #expect(!groups.isAlone(0))
  }
}
