extension Container {
  /// Disposes every instance this container made whose binding declares `dispose:`, newest
  /// first — so an instance is disposed before the instances it was made from — each once.
  ///
  /// Afterwards every resolve from the container (and its scopes) throws
  /// ``ResolutionError/Code/shutDown``. Calling it again does nothing.
  ///
  /// The order: new requests are refused at once; then every scope still open is closed, as
  /// its ``Scope/close()`` would (a request's connection goes before the pool it came from);
  /// then, once the creations already under way have ended, the container's own instances are
  /// disposed newest first. An instance that was still being made is disposed in that order,
  /// its disposer's failure is thrown with the others, and its request fails with `shutDown`.
  ///
  /// Every disposer runs even when some throw; the failures are thrown together at the end.
  /// Instances handed over with `bind(_:instance:)` are disposed only if that binding
  /// declares `dispose:`. A child container's instances are the child's: shut it down first.
  ///
  /// On a server, shut the container down only after the services that use it have stopped: in
  /// a swift-service-lifecycle `ServiceGroup`, list the container's service *before* the HTTP
  /// server (services stop in reverse order), as the "Server apps" article shows.
  ///
  /// ```swift
  /// registrar.bindAsync(ConnectionPool.self, lifetime: .persistent,
  ///   dispose: { try await $0.close() }) { _ in try await ConnectionPool.connect() }
  /// // …
  /// try await container.shutdown()
  /// ```
  ///
  /// It returns only when disposal is complete: a call made while another is disposing waits
  /// for that one (whose caller gets the failures), and later calls return at once.
  ///
  /// - Throws: ``DisposalError`` listing every disposer that threw.
  public func shutdown() async throws(DisposalError) {
    try await disposals.closeAndDispose()
  }

  /// Whether ``shutdown()`` was called on this container or on an ancestor.
  ///
  /// A child container whose parent was shut down refuses every request with
  /// ``ResolutionError/Code/shutDown``: it could reach the parent's disposed instances. The
  /// parent's `shutdown()` does not dispose a child's own instances, so shut children down
  /// first, then the parent:
  ///
  /// ```swift
  /// try await session.shutdown()  // a child of app
  /// try await app.shutdown()
  /// ```
  public var isShutDown: Bool { isClosedInChain }

  /// Resets `group` as ``reset(_:)`` does, and awaits the disposal of the instances the reset
  /// dropped, newest first, throwing what their disposers threw.
  ///
  /// ```swift
  /// func logOut() async throws {
  ///   try await container.close(.session)  // closes the session's socket, too
  /// }
  /// ```
  ///
  /// - Parameter group: The cache group to reset.
  /// - Throws: ``DisposalError`` listing every disposer that threw.
  public func close(_ group: CacheGroup) async throws(DisposalError) {
    try await DisposalList.dispose(drop(group))
  }

  /// Whether the instance a resolve of `key` in `scope` would share has been made.
  ///
  /// A scoped binding's is the scope's (none without one), any other binding's the binding's;
  /// whether the container or the scope is still open does not matter.
  func hasInstance(for key: BindingKey, in scope: Scope?) -> Bool {
    guard let binding = lookup(key)?.binding else { return false }
    guard binding.lifetime.reach == .scope else { return binding.holdsInstance }
    return scope?.hasInstance(for: key) ?? false
  }

  @usableFromInline @inline(never)
  func shutDownError<T>(_: T.Type) -> ResolutionError {
    .shutDown(BindingKey(T.self), scopeClosed: false, parent: .topLevel, in: self)
  }
}
