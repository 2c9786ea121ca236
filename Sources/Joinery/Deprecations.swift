// Every spelling Joinery replaced, in one place: each still compiles, with a warning that names
// its replacement, and each is listed under "Removed spellings" in CHANGELOG.md. None is part of
// the documented surface (Scripts/count-public-api.py does not count them).

extension ContainerBuilder {
  /// Adds a register to this builder.
  ///
  /// ```swift
  /// builder = builder.adding(AnalyticsAssembly())
  /// ```
  ///
  /// - Parameter register: An assembly or other register.
  @available(
    *, deprecated, message: "use 'builder = builder.adding(register)': one way to add a register"
  )
  public mutating func add(_ register: some DependencyRegister) {
    registers.append(register)
  }

  /// Adds a register whose bindings replace bindings of the same key elsewhere.
  ///
  /// ```swift
  /// builder = builder.overriding(with: MockNetwork())
  /// ```
  ///
  /// - Parameter register: The register with replacement bindings.
  @available(
    *, deprecated,
    message: "use 'builder = builder.overriding(with: register)': one way to override"
  )
  public mutating func override(with register: some DependencyRegister) {
    overrides.append(register)
  }
}
