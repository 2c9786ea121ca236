/// What an async factory uses to resolve its dependencies, synchronous or asynchronous.
///
/// ```swift
/// registrar.bindAsync(Database.self, lifetime: .persistent) { resolver in
///   try await Database.open(config: try resolver.resolve(Config.self))
/// }
/// ```
public struct AsyncResolver: Sendable {
  let container: Container
  let path: AsyncPath?

  /// Resolves a synchronous binding.
  ///
  /// ```swift
  /// let config = try resolver.resolve(Config.self)
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  public func resolve<T>(_ type: T.Type = T.self) throws(ResolutionError) -> T {
    try container.resolve(T.self)
  }

  /// Resolves a binding that may be asynchronous.
  ///
  /// ```swift
  /// let cache = try await resolver.resolveAsync(Cache.self)
  /// ```
  ///
  /// - Parameter type: The type to resolve.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``, with the asynchronous path.
  public func resolveAsync<T: Sendable>(_ type: T.Type = T.self) async throws(ResolutionError) -> T
  {
    try await container.resolveAsync(T.self, path: path)
  }
}
