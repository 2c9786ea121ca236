extension Registrar {
  /// Binds `type` to an `async` factory. Resolve it with `try await container.resolveAsync(…)`;
  /// a synchronous resolve throws ``ResolutionError/Code/asyncBinding``.
  ///
  /// Persistent async bindings create their instance once however many tasks ask at the same
  /// time; cancelling one of them does not cancel the creation; a failure is retried by the next
  /// request. Synchronous bindings never pay for this.
  ///
  /// ```swift
  /// registrar.bindAsync(Database.self, lifetime: .persistent) { resolver in
  ///   try await Database.open(path: try resolver.resolve(Config.self).databasePath)
  /// }
  /// let database = try await container.resolveAsync(Database.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: ``Lifetime/persistent`` or ``Lifetime/ephemeral`` (others behave as
  ///     ephemeral for async bindings).
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds the instance asynchronously.
  public mutating func bindAsync<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime = .ephemeral,
    override isOverride: Bool = false, fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (AsyncResolver) async throws -> T
  ) {
    let binding = AsyncBinding(
      key: BindingKey(T.self, boxed: internedTag(tag)), lifetime: lifetime,
      location: BindingLocation(fileID: fileID, line: line), registerType: registerType,
      isOverride: isOverride || isOverriding, layout: ValueLayout(of: T.self),
      make: { resolver in try await factory(resolver) })
    collector.add(binding)
  }
}
