internal import JoineryEngine

extension Registrar {
  /// Declares that this assembly expects another module to bind `type` (with `tag`).
  ///
  /// `build()` reports a requirement nothing binds as ``Diagnostic/Code/unmetRequirement``,
  /// naming this assembly and this line, before the missing dependencies it causes. Checking
  /// the assembly alone (``Assembly/validate()``) counts it as bound, so a feature's own test
  /// target can check its assembly without the modules that provide it.
  ///
  /// ```swift
  /// struct FeedAssembly: Assembly {
  ///   func register(in registrar: inout Registrar) {
  ///     registrar.require((any HTTPClient).self)  // the networking module binds it
  ///     registrar.bind(FeedStore.self, private: true, to: FeedStore.init(client:))
  ///     registrar.bind((any FeedServicing).self, to: FeedService.init(store:))
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the module resolves.
  ///   - tag: Its tag; a tagged requirement is also met by the untagged binding, as a request
  ///     falls back to it.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  public mutating func require<T>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    collector.requirements.append(
      Requirement(
        module: module, key: BindingKey(T.self, boxed: internedTag(tag)),
        location: BindingLocation(file: fileID, line: line), registerType: registerType,
        layout: _ValueLayout(of: T.self)))
  }

  /// Declares replacements for the bindings of the assembly `assembly`, its private ones
  /// included: a test of that feature's internals.
  ///
  /// Every binding declared in `body` is an override. One whose key `assembly` keeps private
  /// replaces that private binding, and stays private to `assembly`; any other replaces the
  /// binding of its key for everyone, as `override: true` does.
  ///
  /// ```swift
  /// struct FeedInternalsDoubles: Assembly {
  ///   func register(in registrar: inout Registrar) {
  ///     registrar.overriding(FeedAssembly.self) { registrar in
  ///       registrar.bind(FeedStore.self) { _ in FeedStore(client: StubClient()) }
  ///     }
  ///   }
  /// }
  /// let container = try ContainerBuilder(AppAssembly(), FeedInternalsDoubles()).build()
  /// ```
  ///
  /// - Parameters:
  ///   - assembly: The assembly whose bindings to replace.
  ///   - body: Declares the replacements.
  public mutating func overriding<A: Assembly>(
    _ assembly: A.Type, _ body: (inout Registrar) -> Void
  ) {
    flush()
    var registrar = Registrar(
      collector: collector, registerType: registerType, isOverriding: true,
      defaultLifetime: defaultLifetime, module: module, overrideTarget: A.self)
    body(&registrar)
    registrar.flush()
  }
}

extension Assembly {
  /// Checks this assembly on its own, as its feature's test target does: every dependency of
  /// its bindings must be its own (bound by it or by the registers it includes, privately or
  /// not) or a declared requirement (``Registrar/require(_:tag:fileID:line:)``).
  ///
  /// The other build checks run too (cycles, captive dependencies, tags, isolation); no
  /// container is made and no factory runs.
  ///
  /// ```swift
  /// @Test func feedAssemblyIsComplete() throws {
  ///   try FeedAssembly().validate()
  /// }
  /// ```
  ///
  /// - Returns: The warnings found.
  /// - Throws: ``BuildError`` listing every gap at once: each dependency nothing here binds or
  ///   requires (with the `require` to add if another module provides it), each dependency on
  ///   another assembly's private binding, and the other build errors.
  @discardableResult
  public func validate() throws(BuildError) -> [Diagnostic] {
    try ContainerBuilder(self).validateAlone()
  }
}
