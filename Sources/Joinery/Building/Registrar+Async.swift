internal import JoineryEngine

extension Registrar {
  /// Binds `type` to an `async` factory.
  ///
  /// Resolve it with `try await container.resolveAsync(…)`;
  /// a synchronous resolve throws ``ResolutionError/Code/asyncBinding``, and `build()` refuses a
  /// synchronous binding that depends on it (``Diagnostic/Code/asyncDependency``).
  ///
  /// Every lifetime behaves as it does for synchronous bindings. A persistent async binding
  /// creates its instance once however many tasks ask at the same time; cancelling one of them
  /// does not cancel the creation (the cancelled one stops waiting at once and throws
  /// ``ResolutionError/Code/factoryFailed`` with a `CancellationError` inside); a failure is
  /// retried by the next request. Synchronous
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
  /// A factory may take runtime arguments after its resolver, any number of them, as with
  /// `bind`: every `resolveAsync(_:tag:matching:arguments:)` then makes a new instance from the
  /// arguments it passes, of those types in that order. Such a binding is ephemeral.
  ///
  /// ```swift
  /// registrar.bindAsync(Thumbnail.self) { (resolver, url: URL) in
  ///   try await Thumbnail.render(url, cache: try resolver.resolve(ImageCache.self))
  /// }
  /// registrar.bindAsync(Tile.self) { (resolver, x: Int, y: Int, zoom: Int) in
  ///   try await Tile.load(x: x, y: y, zoom: zoom)
  /// }
  /// let thumbnail = try await container.resolveAsync(Thumbnail.self, arguments: url)
  /// let tile = try await container.resolveAsync(Tile.self, arguments: 3, 5, 12)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - dependencies: What the factory resolves, checked by `build()`; `nil` leaves the factory
  ///     unchecked.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds the instance asynchronously from a resolver and the runtime
  ///     arguments, if it takes any.
  public mutating func bindAsync<T: Sendable, each Argument: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    dependsOn dependencies: [BindingKey]? = nil,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (AsyncResolver, repeat each Argument) async throws -> T
  ) {
    declaresPrivately = isPrivate
    let location = BindingLocation(file: fileID, line: line)
    guard _isEmpty(repeat (each Argument).self) else {
      return addAsyncArguments(
        T.self, tag: tag, signature: (repeat each Argument).self,
        lifetime: lifetime.explicit ?? .ephemeral, isOverride: isOverride,
        dependencies: Self.declared(keys: dependencies), metadata: metadata,
        disposer: Self.disposer(dispose),
        location: location
      ) { resolver, arguments in try await applying(factory, to: arguments)(resolver) }
    }
    addAsync(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride, location: location,
      dependencies: Self.declared(keys: dependencies), metadata: metadata,
      disposer: Self.disposer(dispose), factory: applying(factory, to: ()))
  }

  /// Binds `type` to an initializer (sync or `async`) whose parameters are awaited from the
  /// container: each one resolves with `resolveAsync`, so it may itself be async.
  ///
  /// `build()` checks every parameter, as it does for `bind(_:to:)`.
  ///
  /// ```swift
  /// registrar.bindAsync(Database.self, lifetime: .persistent) { _ in try await Database.open() }
  /// registrar.bindAsync(UserRepository.self, lifetime: .persistent, to: UserRepository.init)
  /// let users = try await container.resolveAsync(UserRepository.self)
  /// ```
  ///
  /// With `arguments:`, the initializer's leading parameters are a request's runtime arguments
  /// and the others are awaited (assisted injection, as with `bind`):
  ///
  /// ```swift
  /// registrar.bindAsync(Report.self, arguments: Int.self, to: Report.init(year:database:))
  /// let report = try await container.resolveAsync(Report.self, arguments: 2026)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live; with `arguments:`, ephemeral.
  ///   - arguments: The types of the runtime arguments, the initializer's first parameters.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: Builds the instance from the runtime arguments, if any, then its awaited
  ///     dependencies.
  @inlinable @_disfavoredOverload
  public mutating func bindAsync<T: Sendable, each Argument: Sendable, each Parameter: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    arguments: repeat (each Argument).Type, override isOverride: Bool = false,
    private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (repeat each Parameter) async throws -> T
  ) {
    declaresPrivately = isPrivate
    guard _isEmpty(repeat (each Argument).self) else {
      return addAssistedAsync(
        T.self, tag: tag, lifetime: lifetime, arguments: repeat (each Argument).self,
        isOverride: isOverride, metadata: metadata, disposer: Self.disposer(dispose),
        location: BindingLocation(file: fileID, line: line), initializer: initializer)
    }
    addAutowiredAsync(
      T.self, tag: tag, lifetime: lifetime, isOverride: isOverride, metadata: metadata,
      dispose: dispose, location: BindingLocation(file: fileID, line: line),
      contributes: false, initializer: initializer)
  }

  /// Binds `type` to an initializer (sync or `async`) whose parameters are awaited as
  /// `dependencies` say, one per parameter, in order: untagged or with a tag.
  ///
  /// ```swift
  /// registrar.bindAsync(
  ///   Replica.self, lifetime: .persistent, to: Replica.init(database:),
  ///   dependencies: .tagged(Region.eu))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag of the binding itself (never passed on to its dependencies).
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: Builds the instance from its awaited dependencies.
  ///   - first: How the first parameter is resolved.
  ///   - rest: How each other parameter is resolved, in order.
  @inlinable @_disfavoredOverload
  public mutating func bindAsync<T: Sendable, First: Sendable, each Parameter: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (First, repeat each Parameter) async throws -> T,
    dependencies first: Dependency<First>, _ rest: repeat Dependency<each Parameter>
  ) {
    declaresPrivately = isPrivate
    addAutowiredAsync(
      T.self, tag: tag, lifetime: lifetime, isOverride: isOverride, metadata: metadata,
      dispose: dispose, location: BindingLocation(file: fileID, line: line),
      contributes: false, initializer: initializer, dependencies: first, repeat each rest)
  }

  /// Adds one element, made by an `async` factory, to the multi-binding of `type`; resolve
  /// every element with ``Container/resolveAllAsync(_:tag:where:)``.
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
  ///   - isOverride: `true` to replace the contributions of the same type and tag from
  ///     registers that do not override.
  ///   - isPrivate: `true` to keep the contribution inside its assembly: only the bindings of
  ///     that ``Assembly`` and of the plain registers it includes see it in the collection.
  ///   - dependencies: What the factory resolves, checked by `build()`.
  ///   - metadata: Any data to choose the contribution by, with ``Resolving/resolveAll(_:tag:arguments:where:isolation:)``.
  ///   - dispose: How each contributed instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds the contributed instance asynchronously.
  public mutating func contributeAsync<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    dependsOn dependencies: [BindingKey]? = nil,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (AsyncResolver) async throws -> T
  ) {
    declaresPrivately = isPrivate
    addAsync(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(keys: dependencies), metadata: metadata,
      disposer: Self.disposer(dispose), contributes: true, factory: factory)
  }

  /// Adds one element to the multi-binding of `type`, made by an initializer (sync or `async`)
  /// whose parameters are awaited from the container: `bindAsync(_:to:)` as a contribution.
  ///
  /// ```swift
  /// registrar.contributeAsync(Migration.self, to: AddIndexes.init(database:))
  /// let migrations = try await container.resolveAllAsync(Migration.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type of the collection.
  ///   - tag: Contributions with a tag form their own collection.
  ///   - lifetime: How long each contributed instance lives.
  ///   - isOverride: `true` to replace the contributions of the same type and tag from
  ///     registers that do not override.
  ///   - isPrivate: `true` to keep the contribution inside its assembly: only the bindings of
  ///     that ``Assembly`` and of the plain registers it includes see it in the collection.
  ///   - metadata: Any data to choose the contribution by, with ``Resolving/resolveAll(_:tag:arguments:where:isolation:)``.
  ///   - dispose: How each contributed instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: Builds the contributed instance from its awaited dependencies.
  @inlinable @_disfavoredOverload
  public mutating func contributeAsync<T: Sendable, each Parameter: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (repeat each Parameter) async throws -> T
  ) {
    declaresPrivately = isPrivate
    addAutowiredAsync(
      T.self, tag: tag, lifetime: lifetime, isOverride: isOverride, metadata: metadata,
      dispose: dispose, location: BindingLocation(file: fileID, line: line),
      contributes: true, initializer: initializer)
  }

  /// Adds one element to the multi-binding of `type`, made by an initializer whose parameters
  /// are awaited as `dependencies` say, one per parameter, in order: untagged or with a tag.
  ///
  /// ```swift
  /// registrar.contributeAsync(
  ///   Migration.self, to: CopyRows.init(from:to:),
  ///   dependencies: .tagged("legacy"), .untagged)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type of the collection.
  ///   - tag: Contributions with a tag form their own collection (never passed on to the
  ///     dependencies).
  ///   - lifetime: How long each contributed instance lives.
  ///   - isOverride: `true` to replace the contributions of the same type and tag from
  ///     registers that do not override.
  ///   - isPrivate: `true` to keep the contribution inside its assembly: only the bindings of
  ///     that ``Assembly`` and of the plain registers it includes see it in the collection.
  ///   - metadata: Any data to choose the contribution by, with ``Resolving/resolveAll(_:tag:arguments:where:isolation:)``.
  ///   - dispose: How each contributed instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: Builds the contributed instance from its awaited dependencies.
  ///   - dependencies: How each parameter is resolved.
  @inlinable @_disfavoredOverload
  public mutating func contributeAsync<T: Sendable, each Parameter: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (repeat each Parameter) async throws -> T,
    dependencies: repeat Dependency<each Parameter>
  ) {
    declaresPrivately = isPrivate
    addAutowiredAsync(
      T.self, tag: tag, lifetime: lifetime, isOverride: isOverride, metadata: metadata,
      dispose: dispose, location: BindingLocation(file: fileID, line: line),
      contributes: true, initializer: initializer, dependencies: repeat each dependencies)
  }

  /// The autowired async forms of `bindAsync` and `contributeAsync`: each parameter awaited
  /// untagged, and declared.
  @inlinable
  mutating func addAutowiredAsync<T: Sendable, each Parameter: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime.For<T>, isOverride: Bool,
    metadata: (any Sendable)?, dispose: (@Sendable (T) async throws -> Void)?,
    location: BindingLocation, contributes: Bool,
    initializer: @escaping @Sendable (repeat each Parameter) async throws -> T
  ) {
    addAsync(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride, location: location,
      dependencies: Self.declared(repeat (each Parameter).self), metadata: metadata,
      disposer: Self.disposer(dispose), contributes: contributes
    ) { resolver in
      try await initializer(
        repeat try await resolver.parameter(Dependency<each Parameter>.untagged))
    }
  }

  /// The async forms with `dependencies:`: each parameter awaited as its ``Dependency`` says.
  @inlinable
  mutating func addAutowiredAsync<T: Sendable, each Parameter: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime.For<T>, isOverride: Bool,
    metadata: (any Sendable)?, dispose: (@Sendable (T) async throws -> Void)?,
    location: BindingLocation, contributes: Bool,
    initializer: @escaping @Sendable (repeat each Parameter) async throws -> T,
    dependencies: repeat Dependency<each Parameter>
  ) {
    let specification = (repeat interned(each dependencies))
    addAsync(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride, location: location,
      dependencies: Self.declared(repeat each dependencies), metadata: metadata,
      disposer: Self.disposer(dispose), contributes: contributes
    ) { resolver in
      try await initializer(repeat try await resolver.parameter(each specification))
    }
  }

  /// The `bindAsync` `to:` form given `arguments:`: the initializer's leading parameters are a
  /// request's runtime arguments, the others awaited.
  @usableFromInline
  mutating func addAssistedAsync<
    T: Sendable, each Argument: Sendable, each Parameter: Sendable
  >(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime.For<T>,
    arguments: repeat (each Argument).Type, isOverride: Bool, metadata: (any Sendable)?,
    disposer: Disposer?, location: BindingLocation,
    initializer: @escaping @Sendable (repeat each Parameter) async throws -> T
  ) {
    let assisted = AssistedSignature(
      arguments: repeat (each Argument).self, parameters: repeat (each Parameter).self)
    addAsyncArguments(
      T.self, tag: tag, signature: assisted.signature, lifetime: lifetime.explicit ?? .ephemeral,
      isOverride: isOverride, dependencies: assisted.dependencies, metadata: metadata,
      disposer: disposer, location: location
    ) { resolver, arguments in
      let leading = try elements(of: arguments, as: (repeat each Argument).self)
      var index = 0
      return try await initializer(
        repeat try await resolver.assistedParameter(
          (each Parameter).self, leading: leading, next: &index))
    }
    report(assisted, for: T.self, tag: tag)
  }

  private mutating func addAsyncArguments<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, signature: Any.Type, lifetime: Lifetime,
    isOverride: Bool, dependencies: [DeclaredDependency]?, metadata: (any Sendable)?,
    disposer: Disposer?, location: BindingLocation,
    make: @escaping @Sendable (AsyncResolver, Any) async throws -> any Sendable
  ) {
    let binding = AnyBinding(
      key: BindingKey(T.self, boxed: internedTag(tag), argumentTypes: signature),
      lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride || isOverriding, layout: _ValueLayout(of: T.self),
      asyncMaker: nil, asyncArgumentMaker: make)
    binding.dependencies = dependencies
    binding.attach(metadata)
    binding.disposer = disposer
    keep(binding)
  }

  @usableFromInline
  mutating func addAsync<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime?, isOverride: Bool,
    location: BindingLocation, dependencies: [DeclaredDependency]?, metadata: (any Sendable)?,
    disposer: Disposer? = nil, contributes: Bool = false,
    factory: @escaping @Sendable (AsyncResolver) async throws -> T
  ) {
    addAsync(
      T.self, tag: tag, lifetime: lifetime, isOverride: isOverride, location: location,
      dependencies: dependencies, metadata: metadata, disposer: disposer,
      contributes: contributes, maker: { resolver in try await factory(resolver) })
  }

  @usableFromInline
  mutating func addAsync<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime?, isOverride: Bool,
    location: BindingLocation, dependencies: [DeclaredDependency]?, metadata: (any Sendable)?,
    disposer: Disposer? = nil, contributes: Bool = false,
    maker: @escaping @Sendable (AsyncResolver) async throws -> any Sendable
  ) {
    let binding = AnyBinding(
      key: BindingKey(T.self, boxed: internedTag(tag)), lifetime: lifetime ?? defaultLifetime,
      location: location, registerType: registerType, isOverride: isOverride || isOverriding,
      layout: _ValueLayout(of: T.self), asyncMaker: maker)
    binding.inheritsLifetime = lifetime == nil
    binding.dependencies = dependencies
    binding.attach(metadata)
    binding.disposer = disposer
    if contributes {
      keepContribution(binding)
    } else {
      keep(binding)
    }
  }
}

/// `factory` given the runtime arguments `arguments` holds (a tuple of exactly
/// `(repeat each Argument)`), as a function of the resolver alone.
///
/// Synchronous on purpose: Swift 6.3 miscompiles an `async` function that calls another with a
/// pack expanded from a tuple ("freed pointer was not the last allocation" from the task
/// allocator, in debug builds). Here the tuple is unpacked into the returned closure's context,
/// and the closure expands only values it captured.
private func applying<T, each Argument: Sendable>(
  _ factory: @escaping @Sendable (AsyncResolver, repeat each Argument) async throws -> T,
  to arguments: Any
) -> @Sendable (AsyncResolver) async throws -> T {
  // A request passes exactly the bound argument types (its key's signature matched).
  do {
    let values = try UnexpectedValueType.cast(arguments, to: (repeat each Argument).self)
    return { resolver in try await factory(resolver, repeat each values) }
  } catch {
    return { _ in throw error }
  }
}

/// The elements of the tuple `arguments` holds (exactly `(repeat each Argument)`), in order.
///
/// Synchronous for the reason `applying(_:to:)` is.
private func elements<each Argument: Sendable>(
  of arguments: Any, as _: (repeat each Argument).Type
) throws -> [any Sendable] {
  // A request passes exactly the bound argument types (its key's signature matched).
  let values = try UnexpectedValueType.cast(arguments, to: (repeat each Argument).self)
  var elements: [any Sendable] = []
  for value in repeat each values { elements.append(value) }
  return elements
}

extension AsyncResolver {
  /// A parameter of an assisted async initializer: the next of the request's arguments while
  /// there is one, then an awaited dependency.
  fileprivate func assistedParameter<P: Sendable>(
    _: P.Type, leading: [any Sendable], next index: inout Int
  ) async throws -> P {
    guard index < leading.count else {
      return try await parameter(Dependency<P>.untagged)
    }
    defer { index += 1 }
    // The assisted declaration checked that the leading parameter types are the arguments'.
    return try UnexpectedValueType.cast(leading[index], to: P.self)
  }
}
