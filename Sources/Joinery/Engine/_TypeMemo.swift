internal import JoineryPlatform

/// A small, lock-free, lossy set of types: what a container has learned about a type that is
/// costly to ask the runtime again, such as "not a `Provider` or `Lazy`" (a conformance lookup,
/// about 370 instructions, on every failed resolve and every resolve of an unbound `T?`).
///
/// Direct-mapped: each type has one word, chosen from its metadata address; a type inserted
/// later into the same word evicts the earlier one. So ``contains(_:)`` may forget a type, and
/// the caller asks the runtime again, but it never says `true` for a type that was not
/// inserted: a word holds a whole metadata address and is compared with the whole address.
/// Each word is read and written atomically; a race only loses an insertion.
final class _TypeMemo: @unchecked Sendable {
  /// A power of two.
  static let capacity = 64
  private let words: UnsafeMutablePointer<UInt>

  init() {
    words = .allocate(capacity: _TypeMemo.capacity)
    words.initialize(repeating: 0, count: _TypeMemo.capacity)
  }

  deinit {
    words.deinitialize(count: _TypeMemo.capacity)
    words.deallocate()
  }

  @inline(__always)
  private func word(for address: UInt) -> UnsafeMutablePointer<UInt> {
    // Metadata is at least 8-byte aligned: the low bits say nothing.
    words + Int(truncatingIfNeeded: (address >> 3 ^ address >> 9) & UInt(_TypeMemo.capacity - 1))
  }

  /// Whether `type` was inserted and is still remembered.
  @inline(__always)
  func contains(_ type: any Any.Type) -> Bool {
    let address = UInt(bitPattern: ObjectIdentifier(type))
    return joinery_load_relaxed(word(for: address)) == address
  }

  /// Remembers `type`, evicting the type that shared its word, if any.
  func insert(_ type: any Any.Type) {
    let address = UInt(bitPattern: ObjectIdentifier(type))
    joinery_store_relaxed(word(for: address), address)
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
final class _TypeMap<Value>: @unchecked Sendable {
  private final class Entry {
    let type: ObjectIdentifier
    let value: Value

    init(type: ObjectIdentifier, value: Value) {
      self.type = type
      self.value = value
    }
  }

  private let words: UnsafeMutablePointer<UInt>

  init() {
    words = .allocate(capacity: _TypeMemo.capacity)
    words.initialize(repeating: 0, count: _TypeMemo.capacity)
  }

  deinit {
    for index in 0..<_TypeMemo.capacity {
      if let entry = UnsafeRawPointer(bitPattern: words[index]) {
        Unmanaged<Entry>.fromOpaque(entry).release()
      }
    }
    words.deinitialize(count: _TypeMemo.capacity)
    words.deallocate()
  }

  @inline(__always)
  private func word(for type: ObjectIdentifier) -> UnsafeMutablePointer<UInt> {
    let address = UInt(bitPattern: type)
    return words
      + Int(truncatingIfNeeded: (address >> 3 ^ address >> 9) & UInt(_TypeMemo.capacity - 1))
  }

  /// The value remembered for `type`, if any.
  @inline(__always)
  func value(for type: any Any.Type) -> Value? {
    let identity = ObjectIdentifier(type)
    // Acquiring: the entry's fields were written before its address was published.
    guard let entry = UnsafeRawPointer(bitPattern: joinery_load_acquire(word(for: identity)))
    else { return nil }
    return Unmanaged<Entry>.fromOpaque(entry)._withUnsafeGuaranteedRef {
      $0.type == identity ? $0.value : nil
    }
  }

  /// Remembers `value` for `type` if its word is free.
  func insert(_ value: Value, for type: any Any.Type) {
    let identity = ObjectIdentifier(type)
    let word = word(for: identity)
    guard joinery_load_acquire(word) == 0 else { return }
    let entry = Unmanaged.passRetained(Entry(type: identity, value: value))
    if !joinery_compare_exchange(word, 0, UInt(bitPattern: entry.toOpaque())) {
      entry.release()
    }
  }
}
