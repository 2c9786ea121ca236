import Testing

@testable import JoineryEngine

/// `[T]`, `[[T]]`, …: `count` distinct types, each with its own metadata.
private func nestedArrays<T>(of _: T.Type, count: Int) -> [any Any.Type] {
  count == 0 ? [] : [T.self] + nestedArrays(of: [T].self, count: count - 1)
}

/// The engine's per-container memos of facts about types: lossy, but never wrong.
@Suite("Type memos")
struct TypeMemoTests {
  let inserted = nestedArrays(of: Int.self, count: 150)
  let others = nestedArrays(of: String.self, count: 150)

  @Test("A memo of types remembers the last type of each word and never claims another type")
  func memoNeverClaimsAnotherType() {
    let memo = _TypeMemo()
    for type in inserted { memo.insert(type) }
    // 150 types in 64 words: some were evicted, and each word holds exactly one of them.
    let remembered = inserted.filter { memo.contains($0) }
    #expect(!remembered.isEmpty && remembered.count <= _TypeMemo.capacity)
    #expect(others.allSatisfy { !memo.contains($0) })
    memo.insert(inserted[0])
    #expect(memo.contains(inserted[0]))
  }

  @Test("A map of types answers each type with its own value, or nothing")
  func mapAnswersOwnValue() {
    let map = _TypeMap<String>()
    for type in inserted { map.insert("\(type)", for: type) }
    var answered = 0
    for type in inserted {
      if let value = map.value(for: type) {
        #expect(value == "\(type)")
        answered += 1
      }
    }
    #expect(answered > 0 && answered <= _TypeMemo.capacity)
    #expect(others.allSatisfy { map.value(for: $0) == nil })
  }

  @Test("Eight threads inserting and reading at once always read a type's own value")
  func mapUnderContention() {
    let types = inserted
    let wrong = Race.run(threads: 8, rounds: Race.rounds(200)) { _ in
      _TypeMap<Int>()
    } work: {
      map, thread in
      var wrong = 0
      for (index, type) in types.enumerated() where index % 8 == thread || index % 3 == 0 {
        map.insert(index, for: type)
        if let value = map.value(for: type), value != index { wrong += 1 }
      }
      for (index, type) in types.enumerated() {
        if let value = map.value(for: type), value != index { wrong += 1 }
      }
      return wrong
    }
    #expect(wrong.allSatisfy { $0 == 0 }, "a type read another's value")
  }
}
