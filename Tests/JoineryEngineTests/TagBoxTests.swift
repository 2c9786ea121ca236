import Testing

@testable import JoineryEngine

@Suite("Tag boxes and optional tags")
struct TagBoxTests {
  enum Store: Hashable, Sendable { case memory, disk }

  @Test("Boxes of equal values of one type are equal and hash alike; other types never match")
  func equality() {
    #expect(_TagBox("disk") == _TagBox("disk"))
    #expect(_TagBox("disk").hashValue == _TagBox("disk").hashValue)
    #expect(_TagBox("disk") != _TagBox("memory"))
    #expect(_TagBox(Store.disk) == _TagBox(Store.disk))
    // 1 as Int and 1 as Int64 hash alike but are different tags.
    #expect(_TagBox(1) != _TagBox(Int64(1)))
  }

  @Test("A box holds a value of its own type that equals its value, and nothing else")
  func holdsSameTypeValue() {
    let box = _TagBox(Store.disk)
    #expect(box.holds(sameTypeValue: Store.disk))
    #expect(!box.holds(sameTypeValue: Store.memory))
    #expect(!box.holds(sameTypeValue: "disk"))
    #expect(!_TagBox(1).holds(sameTypeValue: Int64(1)))
    #expect(box.base as? Store == .disk)
  }

  @Test("A value that does not equal itself is not reflexive")
  func reflexive() {
    #expect(_TagBox("disk").isReflexive)
    #expect(!_TagBox(Double.nan).isReflexive)
  }

  @Test("An optional tag stands for its innermost value; nil for no tag; a plain one for itself")
  func flattened() {
    let nested: Store?? = .some(.some(.disk))
    #expect(_flattenedTag(nested) as? Store == .disk)
    #expect(_flattenedTag(Store?.none) == nil)
    #expect(_flattenedTag(Store??.some(nil)) == nil)
    #expect(_flattenedTag("disk") as? String == "disk")
    // The value keeps its own type, so it matches a binding tagged with the plain value.
    let flattened = _flattenedTag(Optional("disk"))
    #expect(flattened.map { type(of: $0) == String.self } == true)
  }
}
