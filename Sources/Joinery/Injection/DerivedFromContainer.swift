/// Types a container can make for any bound type without a binding of their own.
protocol DerivedFromContainer: SendableMetatype {
  /// The type whose binding it wraps.
  static var wrappedType: Any.Type { get }
  /// Whether it resolves later into the graph it was made in, and so needs that graph's memory.
  static var remembersGraph: Bool { get }
  /// Whether it can await its binding (`Provider.getAsync()`); a `Lazy` reads synchronously
  /// only, so it can never make a binding with an async factory.
  static var canAwait: Bool { get }
  /// Makes one for a container and tag; `graph` is the memory of the resolution it is made in;
  /// `privateTarget`, a binding the requesting module keeps private, which it makes instead of
  /// looking the key up.
  static func derive(
    from container: Container, tag: BindingTag?, graph: _GraphMemory?, scope: Scope?,
    privateTarget: AnyBinding?
  ) -> Self
}

extension DerivedFromContainer {
  /// The key of the binding a dependency of this type really needs.
  ///
  /// A `Provider` declared with the argument types it is used with needs the binding that
  /// takes them.
  static func wrappedKey(of key: BindingKey) -> BindingKey {
    BindingKey(wrappedType, boxed: key.tag, argumentTypes: key.argumentTypes)
  }
}
