/// The properties of one type that a container fills in an existing instance, for objects whose
/// initializer you do not control (view controllers made by a storyboard, framework callbacks).
///
/// Declare them in an assembly with ``Registrar/injectProperties(of:fileID:line:_:)``, then call
/// ``Container/inject(into:)``:
///
/// ```swift
/// registrar.injectProperties(of: LegacyScreen.self) { properties in
///   properties.inject(\.feed)
///   properties.inject(\.log, tag: "audit")
/// }
///
/// let screen = LegacyScreen()      // made by a framework
/// try container.inject(into: screen)
/// ```
///
/// `build()` checks that every injected property's type (and tag) is bound.
public struct PropertyInjections<Root: AnyObject> {
  var setters: [@Sendable (Root, Container) throws -> Void] = []
  var keys: [DeclaredDependency] = []

  /// Injects the binding of the property's type (untagged) into `property`.
  ///
  /// ```swift
  /// properties.inject(\.feed)
  /// ```
  ///
  /// - Parameter property: A writable property of `Root`.
  public mutating func inject<Value>(
    _ property: any ReferenceWritableKeyPath<Root, Value> & Sendable
  ) {
    keys.append(DeclaredDependency(key: BindingKey(Value.self), matching: .allowingFallback))
    let path = property
    setters.append { root, container in
      root[keyPath: path] = try container.resolve(Value.self)
    }
  }

  /// Injects the binding of the property's type with `tag` (falling back to untagged) into
  /// `property`.
  ///
  /// ```swift
  /// properties.inject(\.log, tag: "audit")
  /// ```
  ///
  /// - Parameters:
  ///   - property: A writable property of `Root`.
  ///   - tag: The binding's tag.
  public mutating func inject<Value>(
    _ property: any ReferenceWritableKeyPath<Root, Value> & Sendable, tag: BindingTag
  ) {
    keys.append(
      DeclaredDependency(key: BindingKey(Value.self, tag: tag), matching: .allowingFallback))
    let path = property
    setters.append { root, container in
      root[keyPath: path] = try container.resolve(Value.self, tag: tag)
    }
  }
}

extension PropertyInjections {
  /// Injects the binding of `Value` into an optional property (such as `var feed: Feed?` or
  /// `var feed: Feed!`).
  ///
  /// ```swift
  /// properties.inject(\.feed)  // var feed: Feed!
  /// ```
  ///
  /// - Parameter property: A writable optional property of `Root`.
  public mutating func inject<Value>(
    _ property: any ReferenceWritableKeyPath<Root, Value?> & Sendable
  ) {
    keys.append(DeclaredDependency(key: BindingKey(Value.self), matching: .allowingFallback))
    let path = property
    setters.append { root, container in
      root[keyPath: path] = try container.resolve(Value.self)
    }
  }

  /// Injects the binding of `Value` with `tag` into an optional property.
  ///
  /// ```swift
  /// properties.inject(\.log, tag: "audit")  // var log: Logger?
  /// ```
  ///
  /// - Parameters:
  ///   - property: A writable optional property of `Root`.
  ///   - tag: The binding's tag.
  public mutating func inject<Value>(
    _ property: any ReferenceWritableKeyPath<Root, Value?> & Sendable, tag: BindingTag
  ) {
    keys.append(
      DeclaredDependency(key: BindingKey(Value.self, tag: tag), matching: .allowingFallback))
    let path = property
    setters.append { root, container in
      root[keyPath: path] = try container.resolve(Value.self, tag: tag)
    }
  }
}

/// The declared property injections of one type, type-erased for the container.
final class PropertyInjector: Sendable {
  let rootType: Any.Type
  let location: BindingLocation
  let registerType: Any.Type
  let keys: [DeclaredDependency]
  /// Runs the setters on an instance of `rootType`.
  let inject: @Sendable (AnyObject, Container) throws -> Void

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

extension Registrar {
  /// Declares which properties of `type` ``Container/inject(into:)`` fills.
  ///
  /// ```swift
  /// registrar.injectProperties(of: LegacyScreen.self) { properties in
  ///   properties.inject(\.feed)
  ///   properties.inject(\.log, tag: "audit")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The class whose instances get their properties filled.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - declare: Lists the injected properties.
  public mutating func injectProperties<Root: AnyObject>(
    of type: Root.Type, fileID: StaticString = #fileID, line: UInt = #line,
    _ declare: (inout PropertyInjections<Root>) -> Void
  ) {
    var injections = PropertyInjections<Root>()
    declare(&injections)
    collector.injectors.append(
      PropertyInjector(
        injections, location: BindingLocation(fileID: fileID, line: line),
        registerType: registerType))
  }
}

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
