/// The declared property injections of one type, type-erased for the container.
final class PropertyInjector: Sendable {
  let rootType: Any.Type
  let location: BindingLocation
  let registerType: Any.Type
  let keys: [DeclaredDependency]
  /// Runs the setters on an instance of `rootType`.
  let inject: @Sendable (AnyObject, Container) throws -> Void

  @available(*, deprecated, message: "made by the deprecated injectProperties(of:_:)")
  init<Root: AnyObject>(
    _ injections: PropertyInjections<Root>, location: BindingLocation, registerType: Any.Type
  ) {
    rootType = Root.self
    self.location = location
    self.registerType = registerType
    keys = injections.keys
    let setters = injections.setters
    inject = { object, container in
      // Looked up by `Root`'s identity, so the object is a `Root`.
      guard let root = object as? Root else { return }
      for setter in setters { try setter(root, container) }
    }
  }
}
