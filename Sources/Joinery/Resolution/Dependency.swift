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
  /// For a `Provider` of a binding with runtime arguments: the argument types its user passes,
  /// which `build()` checks against the binding's.
  @usableFromInline let argumentTypes: TypeIdentity?

  @usableFromInline
  init(tag: BindingTag?, matching: TagMatching, argumentTypes: TypeIdentity? = nil) {
    self.tag = tag
    self.matching = matching
    self.argumentTypes = argumentTypes
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
    DeclaredDependency(
      key: BindingKey(Value.self, boxed: tag, argumentTypes: argumentTypes?.type),
      matching: matching)
  }
}

extension Dependency {
  /// A `Provider` of a binding with runtime arguments, used with these argument types: `build()`
  /// checks that the binding takes exactly them (with `tag`, if given).
  ///
  /// ```swift
  /// registrar.bind(DetailModel.self, arguments: Int.self, to: DetailModel.init(id:feed:))
  /// registrar.bind(
  ///   FeedScreen.self, to: FeedScreen.init(makeDetail:),
  ///   dependencies: .withArguments(Int.self))
  /// // In FeedScreen: let detail = try makeDetail.get(arguments: item.id)
  /// ```
  ///
  /// - Parameters:
  ///   - first: The type of the first argument.
  ///   - rest: The types of the other arguments, in order.
  ///   - tag: The binding's tag, if it has one.
  /// - Returns: The dependency.
  public static func withArguments<Wrapped, First, each Argument>(
    _ first: First.Type, _ rest: repeat (each Argument).Type,
    tag: (any Hashable & Sendable)? = nil
  ) -> Dependency where Value == Provider<Wrapped> {
    Dependency(
      tag: tag.map { BindingTag($0) }, matching: .exact,
      argumentTypes: TypeIdentity((First, repeat each Argument).self))
  }
}
