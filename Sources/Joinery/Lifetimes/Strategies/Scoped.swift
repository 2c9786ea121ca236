internal import JoineryEngine

/// `scoped`: one instance per ``Scope``, made on first use in the scope and disposed by
/// ``Scope/close()``; a request outside a scope fails with `scopeRequired`.
///
/// Both engines keep the scope's instance in the scope's own state (``DisposalList``):
/// synchronously in an ``InstanceHome`` of the scope's, where the binding makes it once as it
/// makes a persistent one in its own, asynchronously as a creation the scope's requests share.
final class ScopedLifetime: LifetimeKind {
  override class var name: String { "scoped" }
  override class var reach: Lifetime.Reach { .scope }
  override class var retainsInstance: Bool { true }

  override class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    // A top-level request inside a factory (a Provider, a captured container) joins its
    // chain: it resolves in that chain's scope, and is checked against what it builds.
    let parent = parent.joined()
    try parent.checkCapture(of: binding, fallbackTag: fallbackTag, in: container)
    guard let scope = parent.scope else {
      throw .scopeRequired(binding, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    try scope.instance(
      of: binding, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }

  override class func resolveAsync(
    _ binding: AnyBinding, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    let scope = try binding.requestScope(of: node, in: container)
    return try await binding.sharedInstance(
      in: scope.disposals, node: node, resolver: resolver, path: path, in: container)
  }
}
