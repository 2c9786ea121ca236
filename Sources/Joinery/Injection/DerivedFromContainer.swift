/// Types a container can make for any bound type without a binding of their own.
protocol DerivedFromContainer {
  /// The type whose binding it wraps.
  static var wrappedType: Any.Type { get }
  /// Makes one for a container and tag.
  static func derive(from container: Container, tag: BindingTag?) -> Self
}

extension DerivedFromContainer {
  /// The key of the binding a dependency of this type really needs.
  static func wrappedKey(tag: BindingTag?) -> BindingKey { BindingKey(wrappedType, boxed: tag) }
}
