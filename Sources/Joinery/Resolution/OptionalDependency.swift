internal import JoineryEngine

/// `T?` as a dependency: the instance of `T` when `T` is bound, `nil` when it is not.
///
/// An autowired `init(analytics: Analytics?)` gets the analytics a build includes, and builds
/// without it; a factory that fails still throws.
protocol _OptionalDependency: SendableMetatype {
  static var wrappedType: Any.Type { get }
  static func resolveIfBound(
    in container: Container, tag: BindingTag?, matching: TagMatching,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> Self
  static func resolveIfBound(
    in container: Container, signature: Any.Type, arguments: borrowing _Arguments,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> Self
}

extension Container {
  /// `type`'s `_OptionalDependency` conformance when it is an `Optional`: looked up in the
  /// runtime once per type, then remembered (``optionalDependencies``).
  func optionalDependency(_ type: any Any.Type) -> (any _OptionalDependency.Type)? {
    if let known = optionalDependencies.value(for: type) { return known }
    guard let optional = type as? any _OptionalDependency.Type else { return nil }
    optionalDependencies.insert(optional, for: type)
    return optional
  }
}

extension Optional: _OptionalDependency {
  static var wrappedType: Any.Type { Wrapped.self }

  static func resolveIfBound(
    in container: Container, tag: BindingTag?, matching: TagMatching,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> Self {
    guard let tag else {
      // Bound only with runtime arguments is a mistake to report (the resolve passed none),
      // not an absence.
      // A `Provider` or `Lazy` of a bound type, or the scope factory, is served too.
      guard
        container.bindsUntagged(Wrapped.self) || container.bindsWithArguments(Wrapped.self)
          || container.derivation(of: Wrapped.self, tag: nil, allowsFallback: true) != nil
      else { return nil }
      return try container.resolve(Wrapped.self, parent: parent)
    }
    let served =
      container.binds(BindingKey(Wrapped.self, boxed: tag))
      || (matching.allowsFallback && container.binds(BindingKey(Wrapped.self, boxed: nil)))
      || container.derivation(
        of: Wrapped.self, tag: tag, allowsFallback: matching.allowsFallback) != nil
    guard served else { return nil }
    return try container.resolve(Wrapped.self, tag: tag, matching: matching, parent: parent)
  }

  /// With runtime arguments: the instance from `Wrapped`'s binding that takes exactly these
  /// argument types (untagged), or nil when no binding does.
  static func resolveIfBound(
    in container: Container, signature: Any.Type, arguments: borrowing _Arguments,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> Self {
    guard container.argumentBinding(for: Wrapped.self, signature: signature) != nil else {
      return nil
    }
    return try container.resolve(
      Wrapped.self, tag: nil as BindingTag?, matching: .allowingFallback, signature: signature,
      arguments: arguments, parent: parent)
  }
}
