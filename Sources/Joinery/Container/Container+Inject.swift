extension Container {
  /// Fills the declared properties of an existing instance.
  ///
  /// ```swift
  /// let screen = LegacyScreen()
  /// try container.inject(into: screen)
  /// ```
  ///
  /// - Parameter object: An instance of a type declared with
  ///   ``Registrar/injectProperties(of:fileID:line:_:)``.
  /// - Throws: ``ResolutionError`` with ``ResolutionError/Code/missingBinding`` when nothing was
  ///   declared for the type, or the error of a property that could not be resolved.
  public func inject<Root: AnyObject>(into object: Root) throws(ResolutionError) {
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
    do {
      try injector.inject(object, self)
    } catch let error as ResolutionError {
      throw error
    } catch {
      preconditionFailure("property injection throws only ResolutionError: \(error)")
    }
  }
}
