/// A tag's value, type-erased: made once per binding, compared by value type and hash before the
/// value itself.
///
/// Two boxes of equal values are equal. Final and immutable, with the value in a box of its own
/// type (``_TagValueBox``), which only ``init(_:)`` makes: so when ``valueType`` names a type,
/// the value box is of that type, and ``holds(sameTypeValue:)`` reads it without a dynamic cast.
/// `Sendable` as the compiler checks it.
///
/// ```swift
/// let box = _TagBox("primary")
/// box.holds(sameTypeValue: "primary")  // true: one type comparison, one `==`
/// box == _TagBox("primary")            // true
/// ```
@usableFromInline package final class _TagBox: Hashable, Sendable {
  /// The identity of the value's type.
  @usableFromInline package let valueType: ObjectIdentifier
  /// The value's `hashValue`.
  @usableFromInline package let hash: Int
  /// The value, in a ``_TagValueBox`` of its type.
  @usableFromInline let value: any _TypedTagBox

  package init<Value: Hashable & Sendable>(_ value: Value) {
    valueType = ObjectIdentifier(Value.self)
    hash = value.hashValue
    self.value = _TagValueBox(value)
  }

  @usableFromInline package static func == (lhs: _TagBox, rhs: _TagBox) -> Bool {
    lhs === rhs
      || (lhs.hash == rhs.hash && lhs.valueType == rhs.valueType
        && lhs.value.isEqual(to: rhs.value))
  }

  @usableFromInline package func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  /// The value, as an existential.
  package var base: any Hashable & Sendable { value.base }

  /// Whether the value equals itself, as a tag must to be matched (`Double.nan` does not).
  package var isReflexive: Bool { value.isEqual(to: value) }

  /// Whether the box holds `value`, when `Value` may be the box's value type: the hot path of a
  /// lookup among a few tags, with no dynamic cast, hashing or allocation.
  @inlinable @inline(__always)
  package func holds<Value: Hashable & Sendable>(sameTypeValue value: Value) -> Bool {
    guard valueType == ObjectIdentifier(Value.self) else { return false }
    // `init` made the value box of the type `valueType` names.
    _internalCheck(
      self.value is _TagValueBox<Value>, "a tag box's valueType names its value's type")
    return unsafe unsafeDowncast(self.value as AnyObject, to: _TagValueBox<Value>.self).value
      == value
  }
}

/// A tag value in a box of its type, behind ``_TagBox``.
@usableFromInline protocol _TypedTagBox: AnyObject, Sendable {
  var base: any Hashable & Sendable { get }
  func isEqual(to other: any _TypedTagBox) -> Bool
}

/// Holds one tag value, `Sendable` as every API that makes a tag requires.
@usableFromInline final class _TagValueBox<Value: Hashable & Sendable>: _TypedTagBox {
  @usableFromInline let value: Value

  @usableFromInline init(_ value: Value) { self.value = value }

  @usableFromInline var base: any Hashable & Sendable { value }

  @usableFromInline func isEqual(to other: any _TypedTagBox) -> Bool {
    // No optional or tuple of `Value` on the way: in this unspecialized code each would ask the
    // runtime for its metadata (about 1,000 instructions a comparison, against 100).
    guard let other = other as? _TagValueBox<Value> else { return false }
    return other.value == value
  }
}
