/// `T?` as a dependency: the instance of `T` when `T` is bound, `nil` when it is not.
///
/// An autowired `init(analytics: Analytics?)` gets the analytics a build includes, and builds
/// without it; a factory that fails still throws.
protocol _OptionalDependency {
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

extension Optional: _OptionalDependency {
  static var wrappedType: Any.Type { Wrapped.self }

  static func resolveIfBound(
    in container: Container, tag: BindingTag?, matching: TagMatching,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> Self {
    guard let tag else {
      // Bound only with runtime arguments is a mistake to report (the resolve passed none),
      // not an absence.
      guard container.binds(BindingKey(Wrapped.self)) || container.bindsWithArguments(Wrapped.self)
      else { return nil }
      return try container.resolve(Wrapped.self, parent: parent)
    }
    let served =
      container.binds(BindingKey(Wrapped.self, boxed: tag))
      || (matching.allowsFallback && container.binds(BindingKey(Wrapped.self)))
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
