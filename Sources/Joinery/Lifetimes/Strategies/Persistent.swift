internal import JoineryEngine

/// `persistent`: one instance per container, made once on first use (or by `build()` when
/// eager) and kept until shutdown.
///
/// Synchronous: ``AnyBinding/createKept(into:in:parent:fallbackTag:home:disposals:)`` makes it under the
/// binding's creation gate and publishes it in `storage`; later requests read it without a lock
/// (the engine's inline fast path reads it before reaching the strategy at all).
/// Asynchronous: ``AnyBinding/containerInstance(node:resolver:path:in:)`` makes it in a task
/// of its own, then publishes it the same way.
final class PersistentLifetime: LifetimeKind {
  override class var name: String { "persistent" }
  override class var reach: Lifetime.Reach { .container }
  override class var isPermanent: Bool { true }
  override class var retainsInstance: Bool { true }
  override class var captureSeverity: Diagnostic.Level { .error }

  override class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if binding.isReady {
      out.initialize(copying: binding.storage)
    } else {
      try binding.createKept(into: out, in: container, parent: parent, fallbackTag: fallbackTag)
    }
  }

  override class func resolveAsync(
    _ binding: AnyBinding, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    try await binding.containerInstance(node: node, resolver: resolver, path: path, in: container)
  }
}
