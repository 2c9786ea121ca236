extension Resolver {
  /// Resolves one autowired parameter.
  @inlinable @inline(__always)
  func resolve<Value>(_ dependency: Dependency<Value>) throws(ResolutionError) -> Value {
    try withContainer { container throws(ResolutionError) -> Value in
      try container.resolve(Value.self, dependency: dependency, parent: context)
    }
  }
}

extension AsyncResolver {
  /// Awaits one autowired parameter of an async binding.
  @inlinable
  func resolveAsync<Value: Sendable>(
    _ dependency: Dependency<Value>
  ) async throws(ResolutionError) -> Value {
    guard let tag = dependency.tag else { return try await resolveAsync(Value.self) }
    return try await resolveAsync(Value.self, tag: tag, matching: dependency.matching)
  }
}

extension AsyncResolver {
  /// One autowired parameter of an async binding.
  ///
  /// Awaited through ``awaitParameter(_:tag:matching:)``, which is not generic: below a
  /// parameter pack this function is not specialized, and what it does for its type is one
  /// cast. A parameter that function does not serve (a synchronous binding not built yet, a
  /// main-actor one, an optional) is resolved as any request is.
  @inlinable
  func parameter<Value: Sendable>(
    _ dependency: Dependency<Value>
  ) async throws(ResolutionError) -> Value {
    guard
      let instance = try await awaitParameter(
        Value.self, tag: dependency.tag, matching: dependency.matching)
    else { return try await resolveAsync(dependency) }
    // Made by a binding of `Value` itself (a forward, whose target may make something else,
    // takes the general path): the cast does not fail; were it to, the general path reports it.
    do {
      return try UnexpectedValueType.cast(instance, to: Value.self)
    } catch {
      return try await resolveAsync(dependency)
    }
  }

  /// The instance for a parameter of `type` when it is built or comes from an async binding,
  /// awaited; `nil` when the request must take the general path.
  ///
  /// Inlined into the unspecialized `parameter(_:)`: as an async function of its own it would
  /// cost every parameter one more frame and executor hop.
  @usableFromInline @inline(__always)
  func awaitParameter(
    _ type: Any.Type, tag: BindingTag?, matching: TagMatching
  ) async throws(ResolutionError) -> Any? {
    if tag == nil, let built = container.builtInstance(of: type) { return built }
    let path = AsyncPath.joining(self.path)
    let scope = path?.requestScope
    switch container.asyncLookup(
      type, tag: tag, matching: tag == nil ? .exact : matching, scope: scope, path: path,
      isOptional: false)
    {
    case .made(let instance, _): return instance
    case .pending(let pending):
      // A forward's target may make something else: the general path reports it.
      guard pending.forward == nil else { return nil }
      return try await container.awaitPending(pending, path: path, scope: scope)
    case .synchronous, .mainActor, .privatelyBound: return nil
    }
  }
}
