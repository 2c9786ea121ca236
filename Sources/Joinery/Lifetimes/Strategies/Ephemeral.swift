internal import JoineryEngine

/// `ephemeral`: a new instance for every request; the container keeps nothing.
final class EphemeralLifetime: LifetimeKind {
  override class var name: String { "ephemeral" }
  override class var reach: Lifetime.Reach { .none }

  override class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try binding.make(
      binding.maker, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }

  override class func resolveAsync(
    _ binding: AnyBinding, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    let make = binding.asyncMake
    return try await binding.run(node, in: container) { try await make(resolver) }
  }
}
