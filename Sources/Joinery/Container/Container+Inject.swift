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
    guard let injector = injectors[ObjectIdentifier(Root.self)] else {
      if let ancestor = parentContainer { return try ancestor.inject(into: object) }
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
