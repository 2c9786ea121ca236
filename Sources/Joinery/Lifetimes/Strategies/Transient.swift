public import JoineryEngine

/// `transient`, weak sharing: the same instance while anyone outside the container holds it,
/// a new one after it is released; only a class instance can be weak.
///
/// Synchronous: the binding's ``LifetimeCell`` keeps a weak reference to the object, and
/// `storage` a copy of the instance's bits that does not own it (see ``AnyBinding``); the
/// engine's inline path copies a live instance out before reaching the strategy.
/// Asynchronous: concurrent requests share one creation, made inline; afterwards only the weak
/// reference is kept.
final class TransientLifetime: LifetimeKind {
  override class var name: String { "transient" }
  override class var reach: Lifetime.Reach { .container }
  override class var sharesWeakly: Bool { true }
  override class var usesCell: Bool { true }

  override class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try binding.resolveTransient(
      into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }

  override class func holdsInstance(_ binding: AnyBinding) -> Bool {
    binding.aliveObject() != nil
  }

  override class func resolveAsync(
    _ binding: AnyBinding, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    try await binding.transientInstance(
      node: node, resolver: resolver, path: path, in: container)
  }
}

extension AnyBinding {
  @inline(never)
  func resolveTransient(
    into out: borrowing _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    // The common case: the instance is alive. No cycle is possible (nothing is being built)
    // and creation's gate is not needed; a longer-lived creation must not keep it, though.
    try checkAliveCapture(parent: parent, fallbackTag: fallbackTag, in: container)
    if copyAlive(into: out) { return }
    try createKept(into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }

  /// The captive check for a request that may be served the live instance: a persistent or
  /// cached creation under way must not keep it, alive or not.
  ///
  /// Inline, it reads one thread-local counter; the check itself, needed only during such a
  /// creation, is out of line.
  @inlinable @inline(__always)
  func checkAliveCapture(
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?, in container: Container
  ) throws(ResolutionError) {
    guard _ThreadState.isCreatingShared else { return }
    try checkCaptureDuringSharedCreation(parent: parent, fallbackTag: fallbackTag, in: container)
  }

  @usableFromInline @inline(never)
  func checkCaptureDuringSharedCreation(
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?, in container: Container
  ) throws(ResolutionError) {
    try parent.joined().checkCapture(of: self, fallbackTag: fallbackTag, in: container)
  }

  /// A strong reference to the transient instance's object if it is still alive, taken by
  /// loading the weak reference.
  @usableFromInline
  func aliveObject() -> AnyObject? { cell?.withLock { $0.alive } }

  /// Copies the transient instance into `out` if it is still alive.
  @usableFromInline
  func copyAlive(into out: borrowing _InstanceSlot) -> Bool {
    guard let object = aliveObject() else { return false }
    // The bits refer to `object` and nothing else: hand over the reference the load took
    // instead of retaining again. While it is held the object lives, so no creation rewrites
    // the bits.
    out.takeBits(of: storage, layout, handingOver: object)
    return true
  }
}

/// An async transient binding is the region of its own instance: the live object while someone
/// holds it, else the creation under way (in the cell's ``LifetimeCell/slot``), made by the
/// request that finds neither; afterwards only the weak reference is kept.
extension AnyBinding: AsyncRegion {
  func claimShared(_ binding: AnyBinding) -> AsyncClaim {
    cell!.withLock { cell in
      if let object = cell.alive { return .made(object) }
      return cell.slot.claim()
    }
  }

  func endShared(_ binding: AnyBinding, _ made: AsyncInstance) -> AsyncCreation? {
    cell!.withLock { cell in
      if case .made(let instance) = made { cell.alive = Self.object(in: instance) }
      // Kept only weakly: the slot forgets it.
      return cell.slot.end(.none)
    }
  }

  var disposalList: DisposalList? { nil }

  /// A transient request: the live instance if someone holds it, else the creation under way,
  /// or a new one made inline.
  @inline(__always)
  func transientInstance(
    node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?, in container: Container
  ) async throws(ResolutionError) -> Any? {
    guard
      let instance = try await sharedInstance(
        in: self, node: node, resolver: resolver, path: path, in: container)
    else { return nil }
    guard Self.object(in: instance) != nil else {
      throw .transientValueType(
        self, fallbackTag: nil, parent: node.parent, instanceType: type(of: instance),
        in: container)
    }
    return instance
  }
}
