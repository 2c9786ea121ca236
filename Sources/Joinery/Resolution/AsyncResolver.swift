/// What an async factory uses to resolve its dependencies, synchronous or asynchronous: every
/// form of ``Resolving``, continuing the factory's resolution.
///
/// ```swift
/// registrar.bindAsync(Database.self, lifetime: .persistent) { resolver in
///   try await Database.open(config: try resolver.resolve(Config.self))
/// }
/// ```
public struct AsyncResolver: Sendable {
  @usableFromInline let container: Container
  @usableFromInline let path: AsyncPath?

  // Its resolve forms are ``Resolving``'s, shared with the container, scopes and `Resolver`.
}
