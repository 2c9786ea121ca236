extension Registrar {
  /// Declares which properties of `type` ``Container/inject(into:isolation:)`` fills.
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
