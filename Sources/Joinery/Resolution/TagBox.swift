/// The type-erased storage of a tag: made once per binding, compared by value type and hash
/// before the value itself.
///
/// Two boxes of equal values are equal, so ``BindingTag``'s equality and hashing are
/// synthesized from its box.
@usableFromInline
class AnyTagBox: Hashable, @unchecked Sendable {
  @usableFromInline let valueType: ObjectIdentifier
  @usableFromInline let hash: Int

  init(valueType: ObjectIdentifier, hash: Int) {
    self.valueType = valueType
    self.hash = hash
  }

  @usableFromInline static func == (lhs: AnyTagBox, rhs: AnyTagBox) -> Bool {
    lhs === rhs || (lhs.hash == rhs.hash && lhs.isEqual(to: rhs))
  }

  @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  var base: any Hashable & Sendable { preconditionFailure("abstract") }
  var description: String { preconditionFailure("abstract") }
  @usableFromInline func isEqual(to other: AnyTagBox) -> Bool { preconditionFailure("abstract") }
}

// Immutable: holds one value, `Sendable` by every API that makes a tag.
@usableFromInline
final class TagBox<Value: Hashable & Sendable>: AnyTagBox, @unchecked Sendable {
  @usableFromInline let value: Value

  init(_ value: Value) {
    self.value = value
    super.init(valueType: ObjectIdentifier(Value.self), hash: value.hashValue)
  }

  override var base: any Hashable & Sendable { value }

  override var description: String {
    if let text = value as? String { return "\"\(text)\"" }
    return Mirror(reflecting: value).displayStyle == .enum ? ".\(value)" : "\(value)"
  }

  @usableFromInline override func isEqual(to other: AnyTagBox) -> Bool {
    // No optional or tuple of `Value` on the way: in this unspecialized code each would ask the
    // runtime for its metadata (about 1,000 instructions a comparison, against 100).
    guard other.valueType == valueType, let other = other as? TagBox<Value> else { return false }
    return other.value == value
  }
}
