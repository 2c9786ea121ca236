extension Container {
  /// Runs `body` with a resolver, to fill an object the container did not make — a view
  /// controller from a storyboard, a test's subject — in one resolution: errors carry the path,
  /// cycles are caught, and `graph` instances are shared across everything `body` resolves.
  ///
  /// ```swift
  /// try container.inject(into: viewController) { resolver, controller in
  ///   controller.model = try resolver.resolve(FeedModel.self)
  ///   controller.images = try resolver.resolve(ImageLoader.self)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to fill.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): main-actor bindings
  ///     may be made when it is the main actor.
  ///   - body: Sets the object's dependencies through the resolver.
  /// - Throws: ``ResolutionError`` from a resolve in `body`, or what `body` itself throws.
  public func inject<Object>(
    into object: Object, isolation: isolated (any Actor)? = #isolation,
    _ body: (borrowing Resolver, Object) throws -> Void
  ) throws {
    try checkOpen(Object.self)
    var failure: (any Error)?
    try ResolutionContext.withResolver(in: self, isolation: isolation) {
      resolver throws(ResolutionError) in
      do {
        try body(resolver, object)
      } catch let error as ResolutionError {
        throw error
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }
}
