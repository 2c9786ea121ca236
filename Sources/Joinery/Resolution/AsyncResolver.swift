/// What an async factory uses to resolve its dependencies, synchronous or asynchronous.
///
/// ```swift
/// registrar.bindAsync(Database.self, lifetime: .persistent) { resolver in
///   try await Database.open(config: try resolver.resolve(Config.self))
/// }
/// ```
public struct AsyncResolver: Sendable {
  @usableFromInline let container: Container
  @usableFromInline let path: AsyncPath?

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
    try container.resolveSynchronously(
      T.self, tag: nil, matching: .exact, scope: path?.requestScope, path: path)
  }

  /// Resolves a tagged synchronous binding, falling back to the untagged one.
  ///
  /// ```swift
  /// let log = try resolver.resolve(Logger.self, tag: "audit")
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag: any hashable, sendable value.
  ///   - matching: Whether the untagged binding may serve the request.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``.
  public func resolve<T>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback
  ) throws(ResolutionError) -> T {
    try container.resolveSynchronously(
      T.self, tag: BindingTag(tag), matching: matching, scope: path?.requestScope, path: path)
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
  @inlinable
  public func resolveAsync<T: Sendable>(_ type: T.Type = T.self) async throws(ResolutionError) -> T
  {
    try await container.resolveAsync(T.self, tag: nil, matching: .exact, path: path)
  }

  /// Resolves a tagged binding that may be asynchronous, falling back to the untagged one.
  ///
  /// ```swift
  /// let replica = try await resolver.resolveAsync(Database.self, tag: Replica.read)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve.
  ///   - tag: The tag: any hashable, sendable value.
  ///   - matching: Whether the untagged binding may serve the request.
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``, with the asynchronous path.
  public func resolveAsync<T: Sendable>(
    _ type: T.Type = T.self, tag: some Hashable & Sendable,
    matching: TagMatching = .allowingFallback
  ) async throws(ResolutionError) -> T {
    try await container.resolveAsync(T.self, tag: BindingTag(tag), matching: matching, path: path)
  }
}
