extension Registrar {
  /// Binds `type` to an `async` factory. Resolve it with `try await container.resolveAsync(…)`;
  /// a synchronous resolve throws ``ResolutionError/Code/asyncBinding``, and `build()` refuses a
  /// synchronous binding that depends on it (``Diagnostic/Code/asyncDependency``).
  ///
  /// Every lifetime behaves as it does for synchronous bindings. A persistent async binding
  /// creates its instance once however many tasks ask at the same time; cancelling one of them
  /// does not cancel the creation; a failure is retried by the next request. Synchronous
  /// bindings never pay for this.
  ///
  /// ```swift
  /// registrar.bindAsync(Database.self, lifetime: .persistent, dependsOn: [BindingKey(Config.self)]) {
  ///   resolver in
  ///   try await Database.open(path: try resolver.resolve(Config.self).databasePath)
  /// }
  /// let database = try await container.resolveAsync(Database.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - dependencies: What the factory resolves, checked by `build()`; `nil` leaves the factory
  ///     unchecked.
  ///   - metadata: Any data to find the binding by, with ``Container/keys(for:tag:where:)``.
  ///   - dispose: How an instance ends (close the pool), for persistent and cached lifetimes:
  ///     run by ``Container/shutdown()``, newest instance first.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds the instance asynchronously.
  public mutating func bindAsync<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .ephemeral,
    override isOverride: Bool = false, dependsOn dependencies: [BindingKey]? = nil,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (AsyncResolver) async throws -> T
  ) {
    addAsync(
      T.self, tag: tag, lifetime: lifetime.value, isOverride: isOverride,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: Self.declared(keys: dependencies), metadata: metadata,
      disposer: Self.disposer(dispose), factory: factory)
  }

  /// Binds `type` to an initializer (sync or `async`) whose parameters are awaited from the
  /// container: each one resolves with `resolveAsync`, so it may itself be async. `build()`
  /// checks every parameter, as it does for `bind(_:to:)`.
  ///
  /// ```swift
  /// registrar.bindAsync(Database.self, lifetime: .persistent) { _ in try await Database.open() }
  /// registrar.bindAsync(UserRepository.self, lifetime: .persistent, to: UserRepository.init)
  /// let users = try await container.resolveAsync(UserRepository.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - metadata: Any data to find the binding by, with ``Container/keys(for:tag:where:)``.
  ///   - dispose: How an instance ends, for persistent and cached lifetimes.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: Builds the instance from its awaited dependencies.
  public mutating func bindAsync<T: Sendable, each Parameter: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .ephemeral,
    override isOverride: Bool = false, metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (repeat each Parameter) async throws -> T
  ) {
    addAsync(
      T.self, tag: tag, lifetime: lifetime.value, isOverride: isOverride,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: Self.declared(repeat (each Parameter).self), metadata: metadata,
      disposer: Self.disposer(dispose)
    ) { resolver in
      try await initializer(repeat try await resolver.resolveAsync((each Parameter).self))
    }
  }

  /// Adds one element, made by an `async` factory, to the multi-binding of `type`; resolve
  /// every element with ``Container/resolveAllAsync(_:tag:)``.
  ///
  /// ```swift
  /// registrar.contributeAsync(Migration.self) { _ in try await SchemaV2.load() }
  /// let migrations = try await container.resolveAllAsync(Migration.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type of the collection.
  ///   - tag: Contributions with a tag form their own collection.
  ///   - lifetime: How long each contributed instance lives.
  ///   - dependencies: What the factory resolves, checked by `build()`.
  ///   - metadata: Any data to find the contribution by, with ``Container/keys(for:tag:where:)``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds the contributed instance asynchronously.
  public mutating func contributeAsync<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .ephemeral,
    dependsOn dependencies: [BindingKey]? = nil, metadata: (any Sendable)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (AsyncResolver) async throws -> T
  ) {
    addAsync(
      T.self, tag: tag, lifetime: lifetime.value, isOverride: false,
      location: BindingLocation(fileID: fileID, line: line),
      dependencies: Self.declared(keys: dependencies), metadata: metadata, contributes: true,
      factory: factory)
  }

  private mutating func addAsync<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime, isOverride: Bool,
    location: BindingLocation, dependencies: [DeclaredDependency]?, metadata: (any Sendable)?,
    disposer: Disposer? = nil, contributes: Bool = false,
    factory: @escaping @Sendable (AsyncResolver) async throws -> T
  ) {
    let binding = AsyncBinding(
      key: BindingKey(T.self, boxed: internedTag(tag)), lifetime: lifetime, location: location,
      registerType: registerType, isOverride: isOverride || isOverriding,
      layout: ValueLayout(of: T.self), make: { resolver in try await factory(resolver) })
    binding.dependencies = dependencies
    binding.metadata = metadata
    binding.disposer = disposer
    if contributes {
      collector.contribute(binding)
    } else {
      collector.add(binding)
    }
  }
}
