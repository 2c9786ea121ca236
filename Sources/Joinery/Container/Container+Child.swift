extension Container {
  /// Derives a child container that adds or replaces bindings and resolves everything else
  /// through this one — for example, a user session on top of the app's container.
  ///
  /// ```swift
  /// struct SessionAssembly: Assembly {
  ///   let user: User
  ///   func register(in registrar: inout Registrar) {
  ///     registrar.bind(User.self, instance: user)
  ///     registrar.bind(Inbox.self, lifetime: .persistent, to: Inbox.init(user:client:))
  ///   }
  /// }
  /// let session = try app.makeChild(SessionAssembly(user: user))
  /// let inbox = try session.resolve(Inbox.self)  // HTTPClient comes from `app`
  /// ```
  ///
  /// The lookup rule, precisely:
  /// - A request to the child uses the child's binding of that key if it has one, else the
  ///   nearest ancestor's. A tagged binding anywhere in the chain wins over an untagged
  ///   fallback; the fallback is then looked for in the child first, then in the ancestors.
  /// - A binding's own dependencies are resolved in **the container that declared it**. So a
  ///   parent's `FeedService` keeps using the parent's `HTTPClient` even when a child rebinds
  ///   `HTTPClient`; to change what a parent binding depends on, rebind that binding in the
  ///   child too. This keeps the parent's shared instances the same whoever asks first.
  /// - Persistent instances of the parent are shared with every child; the child's own
  ///   instances belong to the child and are released with it. `reset(_:)` on a child resets
  ///   the child's cached bindings only.
  /// - `resolveAll` returns the ancestors' contributions, then the child's; the child's
  ///   contributions with `override: true` replace the ancestors' to the same collection (type
  ///   and tag), as an override does in one build; `resolveAll(_:tag:arguments:where:isolation:)`
  ///   chooses among the same. An override in the child of a
  ///   key only an ancestor binds has a target: it is no `overrideWithoutTarget` warning.
  /// - The child's bindings that name no lifetime get the builder's
  ///   ``ContainerBuilder/defaultLifetime`` of this container, unless their registers set one.
  ///
  /// `build()`'s checks run for the child's bindings, with what the ancestors bind counting as
  /// present.
  ///
  /// An array of registers is a register: `try app.makeChild(features)` derives a child from
  /// assemblies chosen at run time.
  ///
  /// - Parameters:
  ///   - registers: The child's assemblies; their bindings may shadow the parent's.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): the child's eager
  ///     main-actor bindings are created when it is the main actor.
  /// - Returns: The child container.
  /// - Throws: ``BuildError`` with every problem in the child's bindings.
  public func makeChild(
    _ registers: any DependencyRegister..., isolation: isolated (any Actor)? = #isolation
  ) throws(BuildError) -> Container {
    var builder = ContainerBuilder(registers)
    builder.maximumResolutionDepth = maximumDepth
    builder.defaultLifetime = defaultLifetime
    return try builder.build(parent: self, isolation: isolation)
  }
}
