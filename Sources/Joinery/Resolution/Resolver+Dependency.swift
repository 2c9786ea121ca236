extension Resolver {
  /// Resolves one autowired parameter.
  @inlinable
  func resolve<Value>(_ dependency: Dependency<Value>) throws(ResolutionError) -> Value {
    // Read in place rather than bound to a local: no retain of the tag's box per resolve.
    if dependency.tag == nil { return try resolve(Value.self) }
    return try resolve(
      Value.self, tag: dependency.tag!, matching: dependency.matching)
  }
}

extension AsyncResolver {
  /// Awaits one autowired parameter of an async binding.
  func resolveAsync<Value: Sendable>(
    _ dependency: Dependency<Value>
  ) async throws(ResolutionError) -> Value {
    guard let tag = dependency.tag else { return try await resolveAsync(Value.self) }
    return try await resolveAsync(Value.self, tag: tag, matching: dependency.matching)
  }
}
