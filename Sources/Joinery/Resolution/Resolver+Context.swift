extension Resolver {
  /// What the request being served asked for: the bound type, and the tag it was requested
  /// with.
  ///
  /// A tagged request served by the untagged binding (fallback) carries the requested
  /// tag here, while the binding's own key has none — so a factory can tell who asked, without
  /// the tag ever being passed on to the factory's own dependencies.
  ///
  /// ```swift
  /// registrar.bind(Logger.self) { resolver in
  ///   Logger(category: resolver.requested.tag.map { "\($0)" } ?? "app")
  /// }
  /// let audit = try container.resolve(Logger.self, tag: "audit")  // category "audit"
  /// ```
  public var requested: BindingKey { context.requested }

  /// The binding whose factory asked for the instance being made — the type it is injected
  /// into — or `nil` when it was requested directly from the container.
  ///
  /// ```swift
  /// registrar.bind(Logger.self) { resolver in
  ///   Logger(category: resolver.consumer.map { "\($0.type)" } ?? "app")
  /// }
  /// ```
  public var consumer: BindingKey? { context.consumer }

  /// The chain of requests from the top-level resolve down to the instance being made.
  ///
  /// ```swift
  /// registrar.bind(Tracer.self) { resolver in
  ///   Tracer(span: resolver.path.map(\.description).joined(separator: " → "))
  /// }
  /// ```
  public var path: [ResolutionStep] { context.steps }
}
