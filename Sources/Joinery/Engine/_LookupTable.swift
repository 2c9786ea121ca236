public import JoineryEngine

/// The container's lookup table: type identity → the bindings of that type, the engine's
/// ``_TypeTable`` (a frozen ``_IdentityTable`` whose words point at a type's one untagged
/// binding or at its ``_TypeEntry``), read without any lock.
@usableFromInline typealias _BindingTable = _TypeTable<AnyBinding>

extension AnyBinding: _TypeTableMember {
  @inlinable var tableType: ObjectIdentifier { ObjectIdentifier(key.type) }
  @inlinable var tableTag: _TagBox? { key.tag?.box }
  @inlinable var tableSignature: ObjectIdentifier? {
    key.arguments.map { ObjectIdentifier($0.type) }
  }
}

extension _TagBox: _TypeTableTag {
  @inlinable package static func hash<Value: Hashable & Sendable>(of value: Value) -> Int {
    tagHash(value)
  }
}

extension _TypeTable<AnyBinding> {
  /// The binding stored under exactly `key`.
  func binding(for key: BindingKey) -> AnyBinding? {
    if key.tag == nil && key.argumentTypes == nil {
      return untaggedMember(ofType: ObjectIdentifier(key.type))
    }
    // A type without an entry has only its untagged binding. (No temporary entry here: child
    // containers ask this on every resolve they hand to an ancestor.)
    if key.argumentTypes != nil {
      return storedEntry(for: ObjectIdentifier(key.type))?.withArguments.first { $0.key == key }
    }
    // Through the tag index: validation asks this once per declared edge, so a type with
    // thousands of tags must not be scanned each time.
    return key.tag.flatMap { member(ObjectIdentifier(key.type), taggedAs: $0) }
  }
}

/// Whether `Value` is a boxed tag (`BindingTag`, `_TagBoxReference`).
///
/// Such a value is one reference to its box, read without a copy. The test folds away in
/// specialized code.
@inlinable @inline(__always)
func _isBoxedTag<Value>(_: Value.Type) -> Bool {
  Value.self == BindingTag.self || Value.self == _TagBoxReference.self
}

/// The box of a boxed tag (``_isBoxedTag(_:)``), read without retaining it.
@inlinable @inline(__always)
func _tagBox<Value>(of value: Value) -> _Unretained<_TagBox> {
  if Value.self == BindingTag.self {
    return _Unretained(_identical(value, as: BindingTag.self).box)
  }
  return _identical(value, as: _TagBoxReference.self).box
}

/// The hash a tagged lookup compares first: a boxed tag hashes as the value it wraps.
@inlinable @inline(__always)
func tagHash<Value: Hashable & Sendable>(_ value: Value) -> Int {
  if _isBoxedTag(Value.self) {
    return _tagBox(of: value).read { $0.hash }
  }
  return value.hashValue
}

extension _TagBox {
  /// Whether this box wraps `value`, without hashing, allocating or a dynamic cast: the hot
  /// path of a lookup among a few tags.
  ///
  /// A boxed tag (`BindingTag`, `_TagBoxReference`) is one reference to its box, read without
  /// a copy and compared by identity first. Any other value is compared with the box's own
  /// value when the value types agree (``_TagBox/holds(sameTypeValue:)``).
  @inlinable @inline(__always)
  package final func holds<Value: Hashable & Sendable>(_ value: Value) -> Bool {
    // A build shares one box per tag value: the identity test is the common hit.
    if _isBoxedTag(Value.self) {
      let other = _tagBox(of: value)
      return other.isIdentical(to: _Unretained(self)) || other.read { self == $0 }
    }
    return holds(sameTypeValue: value)
  }
}
