internal import JoineryEngine

/// `graph`: one instance per top-level resolution, shared by everything built during it
/// (diamonds); the container keeps nothing afterwards.
///
/// Synchronous: the instances live in the resolution's root state (``_RootState/graph``, a
/// ``_GraphInstances``), the first ones on the resolving thread's stack.
/// Asynchronous: in the top-level request's graph memory (``AsyncPath/graph``, a holding
/// ``_GraphMemory``), in an ``AsyncSlot`` per binding as a scope keeps its async instances;
/// the instances its synchronous resolves make are held there too, so that each has one per
/// resolution.
final class GraphLifetime: LifetimeKind {
  override class var name: String { "graph" }
  override class var reach: Lifetime.Reach { .resolution }

  override class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = parent.joined()
    if parent.copyGraphInstance(of: binding, into: out) { return }
    try parent.enter(binding, fallbackTag: fallbackTag, in: container, graphSlots: true) {
      frame throws(ResolutionError) in
      try frame.make(binding.maker, into: out, for: binding, in: container)
      frame.storeGraphInstance(copyOf: out, for: binding)
    }
  }

  override class func resolveAsync(
    _ binding: AnyBinding, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    try await binding.sharedInstance(
      in: node.graph, node: node, resolver: resolver, path: path, in: container)
  }
}
