extension Resolver {
  /// Resolves one autowired parameter.
  @inlinable
  func resolve<Value>(_ dependency: Dependency<Value>) throws(ResolutionError) -> Value {
    // Read in place rather than bound to a local: no retain of the tag's box per resolve.
    try withContainer { container throws(ResolutionError) -> Value in
      if dependency.tag == nil { return try container.resolve(Value.self, parent: context) }
      return try container.resolve(
        Value.self, tag: dependency.tag!, matching: dependency.matching, parent: context)
    }
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
