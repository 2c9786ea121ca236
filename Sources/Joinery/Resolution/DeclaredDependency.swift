/// One dependency a binding declares: the key it asks for and whether a tagged request may fall
/// back to the untagged binding.
@usableFromInline
struct DeclaredDependency: Hashable, Sendable {
  @usableFromInline let key: BindingKey
  @usableFromInline let matching: TagMatching

  @usableFromInline
  init(key: BindingKey, matching: TagMatching) {
    self.key = key
    self.matching = matching
  }
}

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
    DeclaredDependency(key: BindingKey(Value.self, tag: tag), matching: matching)
  }
}

extension Resolver {
  /// Resolves one autowired parameter.
  @inlinable
  func resolve<Value>(_ dependency: Dependency<Value>) throws(ResolutionError) -> Value {
    // Read in place rather than bound to a local: no retain of the tag's box per resolve.
    if dependency.tag == nil { return try resolve(Value.self) }
    return try resolve(
      Value.self, tag: dependency.tag!, matching: dependency.matching)
  }
}
