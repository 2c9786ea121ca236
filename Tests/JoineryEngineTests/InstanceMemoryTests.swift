import Testing

@testable import JoineryEngine

@Suite("Instance memory")
struct InstanceMemoryTests {
  final class Object {
    let name: String
    init(_ name: String) { self.name = name }
  }

  protocol Named: AnyObject {}
  struct Wide {
    var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int)
  }

  @Test("A layout knows size, alignment and whether an instance is one class reference")
  func layouts() {
    let object = _ValueLayout(of: Object.self)
    #expect(object.isReference && object.size == MemoryLayout<AnyObject>.size)
    let value = _ValueLayout(of: String.self)
    #expect(!value.isReference && value.size == MemoryLayout<String>.size)
    #expect(value.alignment == MemoryLayout<String>.alignment)
    // An empty type still gets memory of its own.
    #expect(_ValueLayout(of: Void.self).size == 1)
    // A protocol existential carries a witness table beside the reference.
    #expect(!_ValueLayout(of: (any Named).self).isReference)
    #expect(!_ValueLayout(of: (any Sendable).self).isReference)
    #expect(_isSingleReference(Object.self) && !_isSingleReference(Int.self))
  }

  @Test("Storage keeps a value through the layout's copier, and destroys it")
  func storageRoundTrip() {
    let layout = _ValueLayout(of: String.self)
    var storage = _InstanceStorage()
    let allocatedAtFirst = storage.isAllocated
    #expect(!allocatedAtFirst)
    storage.allocate(layout)
    storage.initialize(to: String(repeating: "x", count: 100))
    var buffer = _InstanceBuffer()
    withUnsafeMutableBytes(of: &buffer) { raw in
      let slot = layout.slot(at: raw.baseAddress!)
      slot.initialize(copying: storage)
      #expect(slot.take(as: String.self) == String(repeating: "x", count: 100))
    }
    #expect(storage.loadAny(layout) as? String == String(repeating: "x", count: 100))
    storage.destroy(layout)
    storage.deallocate()
    let allocatedAtEnd = storage.isAllocated
    #expect(!allocatedAtEnd)
  }

  /// A holder as a binding is: its atomic word, then the words an instance may be kept in.
  final class Holder: _AtomicWordsHolder, @unchecked Sendable {
    var atomicWords: UInt = 0
    var inline: UInt = 0
    var storage = _InstanceStorage()
    init() {
      _checkAtomicWordsLayout(&atomicWords)
      _checkAtomicWordsLayout(&inline, at: 1)
    }
    var inlineAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(_atomicWord(1)) }
  }

  @Test(
    "An instance of one word is kept in its holder's word, a wider one on the heap",
    arguments: [
      (_ValueLayout(of: Object.self), true), (_ValueLayout(of: Int.self), true),
      (_ValueLayout(of: String.self), false), (_ValueLayout(of: (any Named).self), false),
      (_ValueLayout(of: (any Sendable).self), false), (_ValueLayout(of: Wide.self), false),
    ])
  func inlineWords(layout: _ValueLayout, fitsInline: Bool) {
    let holder = Holder()
    holder._allocate(&holder.storage, layout, inlineAt: 1)
    #expect((holder.storage.address == holder.inlineAddress) == fitsInline)
    // A second allocation keeps the memory it has.
    let first = holder.storage.address
    holder._allocate(&holder.storage, layout, inlineAt: 1)
    #expect(holder.storage.address == first)
    holder._deallocate(&holder.storage, inlineAt: 1)
    let allocatedAtEnd = holder.storage.isAllocated
    #expect(!allocatedAtEnd)
  }

  @Test("An object kept in its holder's word lives until the storage destroys it")
  func inlineObjectLifetime() {
    weak var released: Object?
    let layout = _ValueLayout(of: Object.self)
    let holder = Holder()
    holder._allocate(&holder.storage, layout, inlineAt: 1)
    do {
      let object = Object("kept")
      released = object
      holder.storage.initialize(to: object)
    }
    #expect(released != nil)
    #expect(holder.storage.load(as: Object.self).name == "kept")
    holder.storage.destroy(layout)
    holder._deallocate(&holder.storage, inlineAt: 1)
    #expect(released == nil)
  }

  @Test("An object in storage lives until the storage destroys it; object(in:) finds it")
  func objectLifetime() {
    weak var released: Object?
    let layout = _ValueLayout(of: Object.self)
    var storage = _InstanceStorage()
    storage.allocate(layout)
    do {
      let object = Object("kept")
      released = object
      storage.initialize(to: object)
    }
    #expect(released != nil)
    do {
      let (found, dynamicType) = storage.slot(layout).object(layout)
      #expect(found === released && dynamicType == Object.self)
    }
    storage.destroy(layout)
    storage.deallocate()
    #expect(released == nil)
  }

  @Test("A value is no object: object(in:) answers nil and the dynamic type")
  func valueIsNoObject() {
    var storage = _InstanceStorage()
    let layout = _ValueLayout(of: (any Sendable).self)
    storage.allocate(layout)
    storage.initialize(to: 42 as any Sendable)
    let (found, dynamicType) = storage.slot(layout).object(layout)
    #expect(found == nil && dynamicType == Int.self)
    storage.destroy(layout)
    storage.deallocate()
  }

  @Test("A type too wide for the stack buffer is built in temporary memory")
  func temporaryInstance() {
    let layout = _ValueLayout(of: Wide.self)
    #expect(layout.size > MemoryLayout<_InstanceBuffer>.size)
    let sum = _withTemporaryInstance(layout) { slot in
      slot.initialize(to: Wide(words: (1, 2, 3, 4, 5, 6, 7, 8, 9)))
      let wide = slot.take(as: Wide.self)
      return wide.words.0 + wide.words.8
    }
    #expect(sum == 10)
  }

  @Test("Arguments are read back as the tuple they were given as")
  func arguments() {
    let read = _Arguments.with((7, "seven")) { (arguments: borrowing _Arguments) in
      arguments.load(as: (Int, String).self)
    }
    #expect(read == (7, "seven"))
  }
}
