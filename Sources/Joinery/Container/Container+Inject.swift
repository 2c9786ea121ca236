extension Container {
  /// Fills the declared properties of an existing instance.
  ///
  /// ```swift
  /// let screen = LegacyScreen()
  /// try container.inject(into: screen)
  /// ```
  ///
  /// The properties are filled in one resolution, as the parameters of one resolve are: they
  /// share their `graph` instances, and main-actor bindings are made when the caller is
  /// isolated to the main actor.
  ///
  /// - Parameters:
  ///   - object: An instance of a type declared with
  ///     ``Registrar/injectProperties(of:fileID:line:_:)``.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): main-actor bindings
  ///     may be made when it is the main actor.
  /// - Throws: ``ResolutionError`` with ``ResolutionError/Code/missingBinding`` when nothing was
  ///   declared for the type, or the error of a property that could not be resolved.
  public func inject<Root: AnyObject>(
    into object: Root, isolation: isolated (any Actor)? = #isolation
  ) throws(ResolutionError) {
    var owner: Container? = self
    while let container = owner, container.injectors[ObjectIdentifier(Root.self)] == nil {
      owner = container.parentContainer
    }
    if let owner, owner !== self { return try owner.inject(into: object) }
    guard let injector = injectors[ObjectIdentifier(Root.self)] else {
      throw .missing(
        BindingKey(PropertyInjections<Root>.self), triedFallback: false, parent: .topLevel, in: self
      )
    }
    try checkOpen(Root.self)
    // The setters' requests join the resolution `withResolver` runs on this thread.
    try ResolutionContext.withResolver(in: self, isolation: isolation) {
      _ throws(ResolutionError) in
      do {
        try injector.inject(object, self)
      } catch let error as ResolutionError {
        throw error
      } catch {
        preconditionFailure("property injection throws only ResolutionError: \(error)")
      }
    }
  }
}

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
