/// How an autowired initializer parameter is resolved: untagged, or with a tag.
///
/// Pass one per parameter, in order, after the initializer:
///
/// ```swift
/// registrar.bind(
///   FeedService.self, lifetime: .persistent,
///   to: FeedService.init(client:cache:),
///   dependencies: .untagged, .tagged("disk"))
/// ```
///
/// The tag of the binding being resolved is never passed on to its dependencies: each
/// dependency is resolved with exactly the tag written here. That keeps one instance per binding
/// whatever tag the outer request used.
public struct Dependency<Value>: Sendable {
  @usableFromInline let tag: BindingTag?
  @usableFromInline let matching: TagMatching

  @usableFromInline
  init(tag: BindingTag?, matching: TagMatching) {
    self.tag = tag
    self.matching = matching
  }

  /// The untagged binding of the parameter's type.
  public static var untagged: Dependency<Value> {
    Dependency(tag: nil, matching: .allowingFallback)
  }

  /// The binding of the parameter's type with `tag`; unless `matching` is exact, the untagged
  /// one when no binding has the tag.
  ///
  /// ```swift
  /// dependencies: .tagged(Store.disk), .tagged("audit", matching: .exact)
  /// ```
  ///
  /// - Parameters:
  ///   - tag: The tag.
  ///   - matching: Whether the untagged binding may serve it.
  /// - Returns: The dependency.
  public static func tagged(
    _ tag: some Hashable & Sendable, matching: TagMatching = .allowingFallback
  ) -> Dependency<Value> {
    Dependency(tag: BindingTag(tag), matching: matching)
  }

  @usableFromInline
  var declared: DeclaredDependency {
    DeclaredDependency(key: BindingKey(Value.self, boxed: tag), matching: matching)
  }
}
