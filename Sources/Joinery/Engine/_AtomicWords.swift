// Public only so that the inlinable resolve path can read a binding's ready flag.
public import JoineryPlatform

/// A class whose first stored property is a run of `UInt` words that are read and written only
/// atomically, through the methods below: the engine's flags, thread identities and lazily made
/// locks, without `Synchronization.Atomic` (which needs macOS 15 / iOS 18).
///
/// The words are found as the swift-atomics package finds its managed atomics: at the start of
/// the instance's stored properties (`_getUnsafePointerToStoredProperties`). A root class lays
/// its stored properties out in declaration order, so the conforming root class must declare
/// the words first; ``_checkAtomicWordsLayout()`` verifies it in debug builds. Subclasses add
/// their properties after them.
@usableFromInline
protocol _AtomicWordsHolder: AnyObject {}

extension _AtomicWordsHolder {
  @inlinable @inline(__always)
  func _atomicWord(_ index: Int) -> UnsafeMutablePointer<UInt> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: UInt.self) + index
  }

  /// Reads word `index`; later reads of memory published with it see what was written before.
  @inlinable @inline(__always)
  func _loadAcquiring(_ index: Int) -> UInt { joinery_load_acquire(_atomicWord(index)) }

  @inlinable @inline(__always)
  func _loadRelaxed(_ index: Int) -> UInt { joinery_load_relaxed(_atomicWord(index)) }

  /// Writes word `index`, publishing every write made before it.
  @inlinable @inline(__always)
  func _storeReleasing(_ index: Int, _ value: UInt) {
    joinery_store_release(_atomicWord(index), value)
  }

  @inlinable @inline(__always)
  func _storeRelaxed(_ index: Int, _ value: UInt) {
    joinery_store_relaxed(_atomicWord(index), value)
  }

  /// Adds `delta` to word `index` (acquiring and releasing) and returns the new value.
  @inlinable @inline(__always)
  func _add(_ index: Int, _ delta: UInt) -> UInt { joinery_add(_atomicWord(index), delta) }

  /// Sets the bits of `mask` in word `index`, publishing every write made before it.
  @inlinable @inline(__always)
  func _setReleasing(_ index: Int, _ mask: UInt) { joinery_or_release(_atomicWord(index), mask) }

  /// The lock whose address word `index` holds above its low four bits (which stay free for
  /// flags), made by the first caller: never more than one.
  func _lazyLock(_ index: Int) -> _Lock {
    let word = _atomicWord(index)
    var current = joinery_load_acquire(word)
    if let existing = UnsafeRawPointer(bitPattern: current & ~15) {
      return Unmanaged<_Lock>.fromOpaque(existing).takeUnretainedValue()
    }
    let made = _Lock.make()
    let bits = UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
    assert(bits & 15 == 0, "objects are 16-byte aligned")
    while true {
      if joinery_compare_exchange(word, current, current | bits) { return made }
      current = joinery_load_acquire(word)
      if let existing = UnsafeRawPointer(bitPattern: current & ~15) {
        Unmanaged<_Lock>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped).release()
        return Unmanaged<_Lock>.fromOpaque(existing).takeUnretainedValue()
      }
    }
  }

  /// The lock in word `index`, if one was made.
  func _existingLock(_ index: Int) -> _Lock? {
    UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index)) & ~15).map {
      Unmanaged<_Lock>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Releases the lock in word `index`, if one was made: from the holder's `deinit`.
  func _releaseLazyLock(_ index: Int) {
    if let existing = UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index)) & ~15) {
      Unmanaged<_Lock>.fromOpaque(existing).release()
    }
  }

  /// The object word `index` holds, made by `make` for the first caller: never more than one.
  ///
  /// A loser of the race releases its own. The word holds the whole address, no flags.
  func _lazyObject<T: AnyObject>(_ index: Int, make: () -> T) -> T {
    let word = _atomicWord(index)
    if let existing = UnsafeRawPointer(bitPattern: joinery_load_acquire(word)) {
      return Unmanaged<T>.fromOpaque(existing).takeUnretainedValue()
    }
    let made = Unmanaged.passRetained(make())
    if joinery_compare_exchange(word, 0, UInt(bitPattern: made.toOpaque())) {
      return made.takeUnretainedValue()
    }
    made.release()
    let existing = UnsafeRawPointer(bitPattern: joinery_load_acquire(word)).unsafelyUnwrapped
    return Unmanaged<T>.fromOpaque(existing).takeUnretainedValue()
  }

  /// Releases the object in word `index`, if one was made: from the holder's `deinit`.
  func _releaseLazyObject<T: AnyObject>(_ index: Int, as _: T.Type) {
    if let existing = UnsafeRawPointer(bitPattern: joinery_load_acquire(_atomicWord(index))) {
      Unmanaged<T>.fromOpaque(existing).release()
    }
  }

  /// Checks, in debug builds, that `words` (the holder's first stored property) is where the
  /// methods above look.
  func _checkAtomicWordsLayout(_ words: UnsafeMutableRawPointer) {
    assert(
      words == _getUnsafePointerToStoredProperties(self),
      "\(Self.self) must declare its atomic words as its first stored property")
  }
}
