/// The type-erased storage of a tag: made once per binding, compared by value type and hash
/// before the value itself.
///
/// Two boxes of equal values are equal, so ``BindingTag``'s equality and hashing are
/// synthesized from its box. Final and immutable, with the value in a box of its own type
/// (``TagBox``): `Sendable` as the compiler checks it.
@usableFromInline
final class AnyTagBox: Hashable, Sendable {
  @usableFromInline let valueType: ObjectIdentifier
  @usableFromInline let hash: Int
  /// The value, in a ``TagBox`` of its type: the hot path reaches it with an unchecked
  /// downcast once `valueType` matched.
  @usableFromInline let value: any TypedTagBox

  init<Value: Hashable & Sendable>(_ value: Value) {
    valueType = ObjectIdentifier(Value.self)
    hash = value.hashValue
    self.value = TagBox(value)
  }

  @usableFromInline static func == (lhs: AnyTagBox, rhs: AnyTagBox) -> Bool {
    lhs === rhs
      || (lhs.hash == rhs.hash && lhs.valueType == rhs.valueType
        && lhs.value.isEqual(to: rhs.value))
  }

  @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  var base: any Hashable & Sendable { value.base }
  var description: String { value.text }
}

/// A tag value in a box of its type, behind ``AnyTagBox``.
@usableFromInline
protocol TypedTagBox: AnyObject, Sendable {
  var base: any Hashable & Sendable { get }
  var text: String { get }
  func isEqual(to other: any TypedTagBox) -> Bool
}

/// Holds one value, `Sendable` by every API that makes a tag.
@usableFromInline
final class TagBox<Value: Hashable & Sendable>: TypedTagBox {
  @usableFromInline let value: Value

  init(_ value: Value) { self.value = value }

  @usableFromInline var base: any Hashable & Sendable { value }

  @usableFromInline var text: String {
    if let text = value as? String { return "\"\(text)\"" }
    return Mirror(reflecting: value).displayStyle == .enum ? ".\(value)" : "\(value)"
  }

  @usableFromInline func isEqual(to other: any TypedTagBox) -> Bool {
    // No optional or tuple of `Value` on the way: in this unspecialized code each would ask the
    // runtime for its metadata (about 1,000 instructions a comparison, against 100).
    guard let other = other as? TagBox<Value> else { return false }
    return other.value == value
  }
}
