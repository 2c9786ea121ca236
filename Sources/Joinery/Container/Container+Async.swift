extension Container {
  /// Resolves a binding that may be asynchronous: an async binding is awaited, a synchronous
  /// one resolves as `resolve(_:)` does.
  ///
  /// ```swift
  /// let database = try await container.resolveAsync(Database.self)
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``; a factory's error carries the asynchronous path.
  @inlinable @inline(__always)
  public func resolveAsync<T: Sendable>(_ type: T.Type = T.self) async throws(ResolutionError) -> T
  {
    // A built persistent instance, sync or async, is read in place: no task, no suspension.
    if let built = builtInstance(T.self) { return built }
    return try await resolveAsync(T.self, path: nil)
  }

  @usableFromInline
  func resolveAsync<T: Sendable>(
    _ type: T.Type, path: AsyncPath?
  ) async throws(ResolutionError) -> T {
    guard
      let binding = table.untaggedBinding(ofType: T.self) as? AsyncBinding
    else {
      if let owner = parentContainer?.owner(of: BindingKey(T.self)) {
        return try await owner.resolveAsync(T.self, path: path)
      }
      return try resolve(T.self)
    }
    // A built persistent instance never changes: read it without a lock, a task or a path.
    if binding.isReady {
      return binding.storage.load(as: T.self)
    }
    if let path, path.contains(binding) {
      let steps = path.steps + [ResolutionStep(requested: binding.key, binding: binding.info)]
      throw ResolutionError(
        .cycle, requested: binding.key, path: steps, binding: binding.info, container: self)
    }
    // Stored by this binding's maker, which returns a `T`.
    let instance = try await binding.resolveAsync(in: self, path: path) as! T
    if binding.lifetimeKind == .persistent { binding.publish(instance) }
    return instance
  }
}
