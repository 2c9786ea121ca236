/// The properties of one type that a container fills in an existing instance, for objects whose
/// initializer you do not control (view controllers made by a storyboard, framework callbacks).
///
/// Declare them in an assembly with ``Registrar/injectProperties(of:fileID:line:_:)``, then call
/// ``Container/inject(into:isolation:)``:
///
/// ```swift
/// registrar.injectProperties(of: LegacyScreen.self) { properties in
///   properties.inject(\.feed)
///   properties.inject(\.log, tag: "audit")
/// }
///
/// let screen = LegacyScreen()      // made by a framework
/// try container.inject(into: screen)
/// ```
///
/// `build()` checks that every injected property's type (and tag) is bound.
public struct PropertyInjections<Root: AnyObject> {
  var setters: [@Sendable (Root, Container) throws -> Void] = []
  var keys: [DeclaredDependency] = []

  /// Injects the binding of the property's type into `property`: untagged, or with `tag`
  /// (falling back to untagged).
  ///
  /// ```swift
  /// properties.inject(\.feed)
  /// properties.inject(\.log, tag: "audit")
  /// ```
  ///
  /// - Parameters:
  ///   - property: A writable property of `Root`.
  ///   - tag: The binding's tag, if it has one.
  public mutating func inject<Value>(
    _ property: any ReferenceWritableKeyPath<Root, Value> & Sendable,
    tag: (any Hashable & Sendable)? = nil
  ) {
    let tag = BindingTag(optional: tag)
    keys.append(
      DeclaredDependency(key: BindingKey(Value.self, boxed: tag), matching: .allowingFallback))
    let path = property
    setters.append { root, container in
      root[keyPath: path] = try container.resolve(Value.self, tag: tag)
    }
  }
}

extension PropertyInjections {
  /// Injects the binding of `Value` into an optional property (such as `var feed: Feed?` or
  /// `var feed: Feed!`): untagged, or with `tag` (falling back to untagged).
  ///
  /// ```swift
  /// properties.inject(\.feed)  // var feed: Feed!
  /// properties.inject(\.log, tag: "audit")  // var log: Logger?
  /// ```
  ///
  /// - Parameters:
  ///   - property: A writable optional property of `Root`.
  ///   - tag: The binding's tag, if it has one.
  public mutating func inject<Value>(
    _ property: any ReferenceWritableKeyPath<Root, Value?> & Sendable,
    tag: (any Hashable & Sendable)? = nil
  ) {
    let tag = BindingTag(optional: tag)
    keys.append(
      DeclaredDependency(key: BindingKey(Value.self, boxed: tag), matching: .allowingFallback))
    let path = property
    setters.append { root, container in
      root[keyPath: path] = try container.resolve(Value.self, tag: tag)
    }
  }
}
