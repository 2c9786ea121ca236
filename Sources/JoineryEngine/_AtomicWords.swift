// Public: the inlinable resolve path reads a binding's ready flag through these words.
public import JoineryPlatform

/// A class whose first stored property is a run of `UInt` words that are read and written only
/// atomically, through the methods below: the engine's flags, thread identities and lazily made
/// locks, without `Synchronization.Atomic` (which needs macOS 15 / iOS 18).
///
/// The words are found as the swift-atomics package finds its managed atomics: at the start of
/// the instance's stored properties (`_getUnsafePointerToStoredProperties`). A root class lays
/// its stored properties out in declaration order, so the conforming root class must declare
/// the words first; ``_checkAtomicWordsLayout(_:at:)`` verifies it in debug builds. Subclasses add
/// their properties after them.
@usableFromInline package protocol _AtomicWordsHolder: AnyObject {}

extension _AtomicWordsHolder {
  /// The address of word `index`.
  @inlinable @inline(__always)
  package func _atomicWord(_ index: Int) -> UnsafeMutablePointer<UInt> {
    unsafe _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: UInt.self) + index
  }

  /// Reads word `index`; later reads of memory published with it see what was written before.
  @inlinable @inline(__always)
  package func _loadAcquiring(_ index: Int) -> UInt {
    unsafe joinery_load_acquire(_atomicWord(index))
  }

  /// Reads word `index`, ordering nothing else.
  @inlinable @inline(__always)
  package func _loadRelaxed(_ index: Int) -> UInt {
    unsafe joinery_load_relaxed(_atomicWord(index))
  }

  /// Writes word `index`, publishing every write made before it.
  @inlinable @inline(__always)
  package func _storeReleasing(_ index: Int, _ value: UInt) {
    unsafe joinery_store_release(_atomicWord(index), value)
  }

  /// Writes word `index`, ordering nothing else.
  @inlinable @inline(__always)
  package func _storeRelaxed(_ index: Int, _ value: UInt) {
    unsafe joinery_store_relaxed(_atomicWord(index), value)
  }

  /// Adds `delta` to word `index` (acquiring and releasing) and returns the new value.
  @inlinable @inline(__always)
  package func _add(_ index: Int, _ delta: UInt) -> UInt {
    unsafe joinery_add(_atomicWord(index), delta)
  }

  /// Sets the bits of `mask` in word `index`, publishing every write made before it.
  @inlinable @inline(__always)
  package func _setReleasing(_ index: Int, _ mask: UInt) {
    unsafe joinery_or_release(_atomicWord(index), mask)
  }

  /// The lock whose address word `index` holds above its low four bits (which stay free for
  /// flags), made by the first caller: never more than one.
  @inlinable
  package func _lazyLock(_ index: Int) -> _Lock {
    let word = unsafe _atomicWord(index)
    var current = unsafe joinery_load_acquire(word)
    if let existing = unsafe UnsafeRawPointer(bitPattern: current & ~15) {
      return unsafe Unmanaged<_Lock>.fromOpaque(existing).takeUnretainedValue()
    }
    let made = _Lock.make()
    let bits = unsafe UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
    assert(bits & 15 == 0, "objects are 16-byte aligned")
    while true {
      if unsafe joinery_compare_exchange(word, current, current | bits) { return made }
      current = unsafe joinery_load_acquire(word)
      if let existing = unsafe UnsafeRawPointer(bitPattern: current & ~15) {
        unsafe Unmanaged<_Lock>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
          .release()
        return unsafe Unmanaged<_Lock>.fromOpaque(existing).takeUnretainedValue()
      }
    }
  }

  /// The lock in word `index`, if one was made.
  @inlinable
  package func _existingLock(_ index: Int) -> _Lock? {
    unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index)) & ~15).map {
      unsafe Unmanaged<_Lock>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Releases the lock in word `index`, if one was made: from the holder's `deinit`.
  @inlinable
  package func _releaseLazyLock(_ index: Int) {
    if let existing = unsafe UnsafeRawPointer(
      bitPattern: joinery_load_acquire(_atomicWord(index)) & ~15)
    {
      unsafe Unmanaged<_Lock>.fromOpaque(existing).release()
    }
  }

  /// The object word `index` holds, made by `make` for the first caller: never more than one.
  ///
  /// A loser of the race releases its own. The word holds the whole address, no flags.
  @inlinable
  package func _lazyObject<T: AnyObject>(_ index: Int, make: () -> T) -> T {
    let word = unsafe _atomicWord(index)
    if let existing = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(word)) {
      return unsafe Unmanaged<T>.fromOpaque(existing).takeUnretainedValue()
    }
    let made = unsafe Unmanaged.passRetained(make())
    if unsafe joinery_compare_exchange(word, 0, UInt(bitPattern: made.toOpaque())) {
      return unsafe made.takeUnretainedValue()
    }
    unsafe made.release()
    let existing = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(word)).unsafelyUnwrapped
    return unsafe Unmanaged<T>.fromOpaque(existing).takeUnretainedValue()
  }

  /// The object in word `index`, if one was made.
  @inlinable
  package func _existingLazyObject<T: AnyObject>(_ index: Int, as _: T.Type) -> T? {
    guard
      let existing = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index)))
    else { return nil }
    return unsafe Unmanaged<T>.fromOpaque(existing).takeUnretainedValue()
  }

  /// Releases the object in word `index`, if one was made: from the holder's `deinit`.
  @inlinable
  package func _releaseLazyObject<T: AnyObject>(_ index: Int, as _: T.Type) {
    if let existing = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index)))
    {
      unsafe Unmanaged<T>.fromOpaque(existing).release()
    }
  }

  /// Checks, in debug builds, that `words` (the holder's first stored property) is where the
  /// methods above look.
  ///
  /// Inlinable, so that it is specialized and, outside debug builds, compiles to nothing: a
  /// generic call here cost every binding a container builds 207 instructions (release).
  @inlinable
  package func _checkAtomicWordsLayout<Words>(_ words: inout Words, at index: Int = 0) {
    unsafe withUnsafeMutablePointer(to: &words) { words in
      unsafe assert(
        UnsafeMutableRawPointer(words) == UnsafeMutableRawPointer(_atomicWord(index)),
        "\(Self.self) must declare its words \(index == 0 ? "first" : "at word \(index)")")
    }
  }
}

/// A small, lock-free, lossy set of types: what a container has learned about a type that is
/// costly to ask the runtime again, such as "not a `Provider` or `Lazy`" (a conformance lookup,
/// about 370 instructions, on every failed resolve and every resolve of an unbound `T?`).
///
/// Direct-mapped: each type has one word, chosen from its metadata address; a type inserted
/// later into the same word evicts the earlier one. So ``contains(_:)`` may forget a type, and
/// the caller asks the runtime again, but it never says `true` for a type that was not
/// inserted: a word holds a whole metadata address and is compared with the whole address.
/// Each word is read and written atomically; a race only loses an insertion.
@safe
@usableFromInline package final class _TypeMemo: Sendable {
  /// A power of two.
  @usableFromInline package static let capacity = 64
  /// Each word read and written only atomically.
  @usableFromInline nonisolated(unsafe) let words: UnsafeMutablePointer<UInt>

  /// An empty memo.
  @usableFromInline package init() {
    unsafe words = .allocate(capacity: _TypeMemo.capacity)
    unsafe words.initialize(repeating: 0, count: _TypeMemo.capacity)
  }

  deinit {
    unsafe words.deinitialize(count: _TypeMemo.capacity)
    unsafe words.deallocate()
  }

  /// The index of the word a type's metadata `address` maps to, in a table of `capacity`
  /// words: the one hash both memos use.
  @inlinable @inline(__always)
  package static func index(of address: UInt) -> Int {
    // Metadata is at least 8-byte aligned: the low bits say nothing.
    Int(truncatingIfNeeded: (address >> 3 ^ address >> 9) & UInt(capacity - 1))
  }

  @inlinable @inline(__always)
  func word(for address: UInt) -> UnsafeMutablePointer<UInt> {
    unsafe words + Self.index(of: address)
  }

  /// Whether `type` was inserted and is still remembered.
  @inlinable @inline(__always)
  package func contains(_ type: any Any.Type) -> Bool {
    let address = UInt(bitPattern: ObjectIdentifier(type))
    return unsafe joinery_load_relaxed(word(for: address)) == address
  }

  /// Remembers `type`, evicting the type that shared its word, if any.
  @usableFromInline package func insert(_ type: any Any.Type) {
    let address = UInt(bitPattern: ObjectIdentifier(type))
    unsafe joinery_store_relaxed(word(for: address), address)
  }
}

/// A small, lock-free, lossy map from types to values computed once per type, such as the
/// `_OptionalDependency` conformance of an `Optional` (a conformance lookup on every resolve of
/// a `T?` otherwise).
///
/// Direct-mapped, like ``_TypeMemo``, but first come, first kept: a word holds an entry object
/// that is never replaced, so a reader may use an entry it loaded without any reference count
/// and without racing a writer. A type whose word is taken by another is not remembered (the
/// caller computes its value each time). Entries are released with the map.
@safe
@usableFromInline package final class _TypeMap<Value: Sendable>: Sendable {
  @usableFromInline final class Entry: Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let value: Value

    @usableFromInline init(type: ObjectIdentifier, value: Value) {
      self.type = type
      self.value = value
    }
  }

  /// Each word read and written only atomically.
  @usableFromInline nonisolated(unsafe) let words: UnsafeMutablePointer<UInt>

  /// An empty map.
  @usableFromInline package init() {
    unsafe words = .allocate(capacity: _TypeMemo.capacity)
    unsafe words.initialize(repeating: 0, count: _TypeMemo.capacity)
  }

  deinit {
    for index in 0..<_TypeMemo.capacity {
      if let entry = unsafe UnsafeRawPointer(bitPattern: words[index]) {
        unsafe Unmanaged<Entry>.fromOpaque(entry).release()
      }
    }
    unsafe words.deinitialize(count: _TypeMemo.capacity)
    unsafe words.deallocate()
  }

  @inlinable @inline(__always)
  func word(for type: ObjectIdentifier) -> UnsafeMutablePointer<UInt> {
    unsafe words + _TypeMemo.index(of: UInt(bitPattern: type))
  }

  /// The value remembered for `type`, if any.
  @inlinable @inline(__always)
  package func value(for type: any Any.Type) -> Value? {
    let identity = ObjectIdentifier(type)
    // Acquiring: the entry's fields were written before its address was published.
    guard let entry = unsafe UnsafeRawPointer(bitPattern: joinery_load_acquire(word(for: identity)))
    else { return nil }
    return unsafe Unmanaged<Entry>.fromOpaque(entry)._withUnsafeGuaranteedRef {
      $0.type == identity ? $0.value : nil
    }
  }

  /// Remembers `value` for `type` if its word is free.
  @usableFromInline package func insert(_ value: Value, for type: any Any.Type) {
    let identity = ObjectIdentifier(type)
    let word = unsafe word(for: identity)
    guard unsafe joinery_load_acquire(word) == 0 else { return }
    let entry = unsafe Unmanaged.passRetained(Entry(type: identity, value: value))
    if unsafe !joinery_compare_exchange(word, 0, UInt(bitPattern: entry.toOpaque())) {
      unsafe entry.release()
    }
  }
}
