import Testing

@testable import JoineryEngine

@Suite("Frozen buffers")
struct FrozenBufferTests {
  @Test(
    "A frozen buffer keeps the elements it was made with, in order", arguments: [0, 1, 9, 1_000])
  func elements(count: Int) {
    let buffer = _FrozenBuffer(count: count) { (position: Int) -> (Int, UInt) in
      (position * 3, UInt(position))
    }
    #expect(buffer.count == count && buffer.isEmpty == (count == 0))
    #expect(buffer.indices == 0..<count)
    let read = buffer.indices.map { buffer[$0] }
    #expect(read.map(\.0) == (0..<count).map { $0 * 3 })
    #expect(read.map(\.1) == (0..<count).map { UInt($0) })
  }

  @Test("Unretained handles reach their object without keeping it alive")
  func unretained() {
    final class Box {
      let value: Int
      init(_ value: Int) { self.value = value }
    }
    weak var released: Box?
    do {
      let box = Box(7)
      released = box
      let buffer = _FrozenBuffer(count: 1) { _ in _Unretained(box) }
      #expect(buffer[0].read { $0.value } == 7)
      withExtendedLifetime(box) {}
    }
    #expect(released == nil)
  }
}
