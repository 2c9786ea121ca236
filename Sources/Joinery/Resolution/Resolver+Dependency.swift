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
