internal import JoineryEngine

/// A main-actor factory of the resolver and the request's runtime arguments, before
/// ``_assumingMainActor(_:)`` takes it as a plain one.
typealias MainActorMaker<T> =
  @MainActor @Sendable (borrowing Resolver, borrowing _Arguments) throws -> T

extension Registrar {
  /// Binds a type whose factory must run on the main actor — typically a `@MainActor` class
  /// with an isolated initializer — without a `nonisolated init`.
  ///
  /// Resolve it with a plain `resolve` from main-actor code (the caller's isolation is passed
  /// implicitly), or with `resolveAsync` from any async code, which hops to the main actor
  /// (an async factory may await it so). A synchronous resolve elsewhere hops first:
  /// `try await MainActor.run { try container.resolve(FeedViewModel.self) }`. A resolve
  /// from code not isolated to the main actor, off the main thread, that reaches the factory
  /// throws ``ResolutionError/Code/mainActorRequired``; it never traps. A built persistent instance is returned anywhere (main-actor classes are
  /// `Sendable`).
  ///
  /// ```swift
  /// @MainActor final class FeedViewModel {
  ///   init(feed: FeedService) { … }
  /// }
  /// registrar.bindMainActor(FeedViewModel.self) { resolver in
  ///   FeedViewModel(feed: try resolver.resolve())
  /// }
  /// let model = try container.resolve(FeedViewModel.self)  // in main-actor code
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - dependencies: What the factory resolves, checked by `build()`.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``, off the main actor.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds the instance on the main actor from a resolver and the runtime
  ///     arguments, if it takes any.
  public mutating func bindMainActor<T, each Argument>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    dependsOn dependencies: [BindingKey]? = nil,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ factory:
      @escaping @MainActor @Sendable (borrowing Resolver, repeat each Argument) throws -> T
  ) {
    declaresPrivately = isPrivate
    let signature: Any.Type? =
      _isEmpty(repeat (each Argument).self) ? nil : (repeat each Argument).self
    let key = BindingKey(T.self, boxed: internedTag(tag), argumentTypes: signature)
    let isolated: MainActorMaker<T> = { resolver, arguments in
      try applyOnMainActor(factory, resolver, arguments)
    }
    let onMain = _assumingMainActor(isolated)
    add(
      T.self, tag: tag, lifetime: lifetime, arguments: repeat (each Argument).self,
      isOverride: isOverride, location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(keys: dependencies), metadata: metadata,
      disposer: Self.disposer(dispose), isMainActor: true
    ) { resolver, arguments, out in
      guard resolver.context.isOnMainActor else { throw MainActorRequired(key: key) }
      // A resolution started by a main-actor caller runs on the main actor, so the isolated
      // factory may run in place.
      out.initialize(to: try onMain(resolver, arguments))
    }
  }

  /// Binds a type to a main-actor initializer whose parameters are resolved by type.
  ///
  /// ```swift
  /// registrar.bindMainActor(FeedViewModel.self, to: FeedViewModel.init(feed:))
  /// ```
  ///
  /// With `arguments:`, the initializer's leading parameters are a request's runtime arguments
  /// and the others are resolved (assisted injection, as with `bind`): a view model made for one
  /// item.
  ///
  /// ```swift
  /// registrar.bindMainActor(
  ///   DetailViewModel.self, arguments: Int.self, to: DetailViewModel.init(id:feed:))
  /// let model = try container.resolve(DetailViewModel.self, arguments: 7)  // main actor
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
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``, off the main actor.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The main-actor function that builds the instance from the runtime
  ///     arguments, if any, then its dependencies.
  public mutating func bindMainActor<T, each Argument, each Parameter>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    arguments: repeat (each Argument).Type, override isOverride: Bool = false,
    private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @MainActor @Sendable (repeat consuming each Parameter) throws -> T
  ) {
    declaresPrivately = isPrivate
    guard _isEmpty(repeat (each Argument).self) else {
      let assisted = AssistedSignature(
        arguments: repeat (each Argument).self, parameters: repeat (each Parameter).self)
      let offsets = assisted.offsets
      let key = BindingKey(T.self, boxed: internedTag(tag), argumentTypes: assisted.signature)
      let isolated: MainActorMaker<T> = { resolver, arguments in
        var cursor = _ArgumentCursor(arguments, offsets: offsets)
        return try initializer(
          repeat try resolver.parameter((each Parameter).self, from: &cursor))
      }
      let onMain = _assumingMainActor(isolated)
      addArguments(
        T.self, tag: tag, signature: assisted.signature,
        lifetime: lifetime.explicit ?? .ephemeral, isOverride: isOverride,
        dependencies: assisted.dependencies, metadata: metadata,
        location: BindingLocation(file: fileID, line: line), disposer: Self.disposer(dispose),
        isMainActor: true
      ) { resolver, arguments, out in
        guard resolver.context.isOnMainActor else { throw MainActorRequired(key: key) }
        out.initialize(to: try onMain(resolver, arguments))
      }
      return report(assisted, for: T.self, tag: tag)
    }
    addMainActor(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(repeat (each Parameter).self), metadata: metadata,
      disposer: Self.disposer(dispose)
    ) { resolver in
      try initializer(repeat try resolver.resolve((each Parameter).self))
    }
  }

  /// Binds a type to a main-actor initializer whose parameters are resolved as `dependencies`
  /// say, one per parameter, in order.
  ///
  /// ```swift
  /// registrar.bindMainActor(
  ///   FeedViewModel.self, to: FeedViewModel.init(feed:cache:),
  ///   dependencies: .untagged, .tagged(Store.disk))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``, off the main actor.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The main-actor function that builds the instance.
  ///   - dependencies: How each parameter is resolved.
  @_disfavoredOverload
  public mutating func bindMainActor<T, each Parameter>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @MainActor @Sendable (repeat consuming each Parameter) throws -> T,
    dependencies: repeat Dependency<each Parameter>
  ) {
    declaresPrivately = isPrivate
    let specification = (repeat interned(each dependencies))
    addMainActor(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(repeat each dependencies),
      metadata: metadata, disposer: Self.disposer(dispose)
    ) { resolver in
      try initializer(repeat try resolver.resolve(each specification))
    }
  }

  @usableFromInline
  mutating func addMainActor<T>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime?, isOverride: Bool,
    location: BindingLocation, dependencies: [DeclaredDependency]?, metadata: (any Sendable)?,
    disposer: Disposer?, factory: @escaping @MainActor @Sendable (borrowing Resolver) throws -> T
  ) {
    let key = BindingKey(T.self, boxed: internedTag(tag))
    let isolated: MainActorMaker<T> = { resolver, _ in try factory(resolver) }
    let onMain = _assumingMainActor(isolated)
    add(
      T.self, tag: tag, lifetime: lifetime, isOverride: isOverride, location: location,
      dependencies: dependencies, metadata: metadata, disposer: disposer, isMainActor: true,
      maker: { resolver, arguments, out in
        guard resolver.context.isOnMainActor else { throw MainActorRequired(key: key) }
        // A resolution started by a main-actor caller runs on the main actor, so the
        // isolated factory may run in place.
        out.initialize(to: try onMain(resolver, arguments))
      })
  }
}

/// `apply(_:_:_:)` for a main-actor factory.
@MainActor
func applyOnMainActor<T, each Argument>(
  _ factory: @MainActor (borrowing Resolver, repeat each Argument) throws -> T,
  _ resolver: borrowing Resolver, _ arguments: borrowing _Arguments
) throws -> T {
  let values = arguments.load(as: (repeat each Argument).self)
  return try factory(resolver, repeat each values)
}
