/// A binding made by a factory (closure, initializer or instance, with or without runtime
/// arguments), for every synchronous lifetime: one class, one `switch` over the lifetime in ``resolve(into:in:parent:fallbackTag:)``.
///
/// What each lifetime keeps between resolves:
/// - `persistent`: the instance in `storage`, written once under the creation gate and published
///   by `isReady` (release/acquire), then read without a lock.
/// - `ephemeral`: nothing.
/// - `graph`: nothing here; instances live in the resolving thread's root state.
/// - `transient`: a weak reference to the object in ``cell``, and a copy of the instance's bits in
///   `storage` that does not own it (the bound type may be a protocol existential wrapping the
///   object). The bits are copied out only together with a strong reference loaded from the weak
///   one, so the object they refer to is alive; they are rewritten only when it is dead.
/// - `cached`: the instance in `storage` and its cache-group generation in ``cell``, both touched
///   only holding the creation gate.
@usableFromInline
final class FactoryBinding: AnyBinding, CacheMember, @unchecked Sendable {
  let maker: Maker
  /// The state a transient or cached binding keeps besides its instance; `nil` for the other
  /// lifetimes, which need none.
  private let cell: Protected<LifetimeCell>?

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, layout: ValueLayout, maker: @escaping Maker
  ) {
    self.maker = maker
    switch lifetime.kind {
    case .transient, .cached: cell = Protected(LifetimeCell())
    default: cell = nil
    }
    super.init(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout, isWeaklyShared: lifetime.kind == .transient)
  }

  deinit {
    // A cached instance is not published by `isReady`: the base class would not destroy it.
    if lifetimeKind == .cached, cell?.withLock({ $0.generation }) != 0 {
      storage.destroy(layout)
    }
  }

  override func fresh() -> AnyBinding { freshCopy() }

  /// A binding with this one's declaration and no instance.
  private func freshCopy() -> FactoryBinding {
    let copy = FactoryBinding(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout, maker: maker)
    _ = copyDeclaration(to: copy)
    return copy
  }

  override func link(in container: Container) {
    guard lifetimeKind == .cached else { return }
    let group = container.cacheGroupState(for: lifetime.group ?? .default)
    group.add(self)
    cell?.withLock { $0.group = group }
  }

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    switch lifetimeKind {
    case .persistent:
      if !isReady { try create(in: container, parent: parent, fallbackTag: fallbackTag) }
      out.initialize(copying: storage)
    case .ephemeral:
      try make(maker, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
    case .graph:
      let parent = parent.joined()
      if parent.copyGraphInstance(of: self, into: out) { return }
      try parent.enter(self, fallbackTag: fallbackTag, in: container, graphSlots: true) {
        frame throws(ResolutionError) in
        try frame.make(maker, into: out, for: self, in: container)
        frame.storeGraphInstance(copyOf: out, for: self)
      }
    case .transient:
      try resolveTransient(into: out, in: container, parent: parent, fallbackTag: fallbackTag)
    case .cached:
      try resolveCached(into: out, in: container, parent: parent, fallbackTag: fallbackTag)
    case .scoped:
      // A top-level request inside a factory (a Provider, a captured container) joins its
      // chain: it resolves in that chain's scope, and is checked against what it builds.
      let parent = parent.joined()
      try parent.checkCapture(of: self, fallbackTag: fallbackTag, in: container)
      guard let scope = parent.scope else {
        throw .scopeRequired(self, fallbackTag: fallbackTag, parent: parent, in: container)
      }
      try scope.instance(
        of: self, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
    }
  }

  override var holdsInstance: Bool {
    switch lifetimeKind {
    case .transient: return aliveObject() != nil
    case .cached:
      let (made, current) = cachedGenerations()
      return made != 0 && made == current
    default: return isReady
    }
  }

  /// A copy of this scoped binding that keeps one scope's instance, as a persistent binding
  /// keeps the container's: made exactly once, with the same cycle and deadlock checks.
  func scopeCell() -> FactoryBinding {
    freshCopy()
  }

  /// Whether resolving needs runtime arguments: the key names their tuple type.
  override var needsArguments: Bool { key.argumentTypes != nil }

  /// A new instance from a binding with runtime arguments (always ephemeral).
  @usableFromInline
  func make(
    arguments: _Arguments, into out: _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try parent.enter(self, fallbackTag: fallbackTag, in: container) {
      frame throws(ResolutionError) in
      try frame.make(maker, arguments: arguments, into: out, for: self, in: container)
    }
  }

  // MARK: Persistent

  /// Creates a persistent instance unless it exists; used by resolves and by eager creation,
  /// and for a scope's instance (``scopeCell()``), whose disposal goes to the scope's list.
  @inline(never)
  func create(
    in container: Container, parent: borrowing ResolutionContext, fallbackTag: RequestedTag?,
    disposals: DisposalList? = nil
  ) throws(ResolutionError) {
    try ResolutionContext.outermost(parent, in: container) { parent throws(ResolutionError) in
      let parent = parent.joined()
      // Made earlier in this resolution, whose steps have yet to run: in `storage` already.
      if parent.holdsPublications, parent.heldCreation(of: self).isHeld { return }
      try parent.check(self, fallbackTag: fallbackTag, in: container)
      // Shared instances are not made after shutdown (their disposal would never run).
      if container.disposals.isClosed {
        throw .shutDown(key, scopeClosed: false, parent: parent, in: container)
      }
      try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
        () throws(ResolutionError) -> Bool in
        if isReady { return false }
        let list = disposals ?? container.disposals
        let tracked = try beginTrackedCreation(
          in: list, scopeClosed: disposals != nil, parent: parent, in: container)
        var handedOver = false
        defer { if tracked, !handedOver { list.endCreation() } }
        allocateStorage()
        try make(
          maker, into: storage.slot(layout), in: container, parent: parent,
          fallbackTag: fallbackTag)
        guard parent.holdsPublications else {
          publishReady()
          recordDisposal(in: list)
          try refuseIfClosedMeanwhile(list, tracked: tracked, parent: parent, in: container)
          return false
        }
        holdPublication(in: parent, list: list, tracked: tracked) { self.publishReady() }
        handedOver = true
        return true
      }
    }
  }

  /// For a binding with a disposer, starts a creation that `list`'s closer waits for.
  ///
  /// Throws ``ResolutionError/Code/shutDown`` if `list` closed already. Returns whether it
  /// started one (end it with `list.endCreation()`).
  private func beginTrackedCreation(
    in list: DisposalList, scopeClosed: Bool, parent: borrowing ResolutionContext,
    in container: Container
  ) throws(ResolutionError) -> Bool {
    guard disposer != nil else { return false }
    guard list.beginCreation() else {
      throw .shutDown(key, scopeClosed: scopeClosed, parent: parent, in: container)
    }
    return true
  }

  /// A creation that ended after its container or scope closed: its instance, recorded, is
  /// disposed by the closer, so the request fails instead of getting it.
  private func refuseIfClosedMeanwhile(
    _ list: DisposalList, tracked: Bool, parent: borrowing ResolutionContext,
    in container: Container
  ) throws(ResolutionError) {
    if tracked, list.isClosed {
      throw .shutDown(
        key, scopeClosed: list !== container.disposals, parent: parent, in: container)
    }
  }

  /// Hands the instance just made in `storage` to `parent`'s resolution, which publishes it
  /// (`publish`, then its disposal recorded in `list`) once its `initCompleted` steps ran, or
  /// discards it if the resolution fails; either ends the tracked creation.
  private func holdPublication(
    in parent: borrowing ResolutionContext, list: DisposalList, tracked: Bool,
    publish: @escaping () -> Void
  ) {
    parent.holdUntilEnd(
      self,
      commit: {
        publish()
        self.recordDisposal(in: list)
        if tracked { list.endCreation() }
      },
      abandon: {
        self.abandonInstance(in: list)
        if tracked { list.endCreation() }
      })
  }

  /// Discards the instance in `storage`, made in a resolution that then failed and never
  /// published: its disposal is recorded in `list` all the same (it may hold resources), and a
  /// later request makes a new one.
  private func abandonInstance(in list: DisposalList) {
    recordDisposal(in: list)
    storage.destroy(layout)
  }

  // MARK: Transient

  @inline(never)
  private func resolveTransient(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    // The common case: the instance is alive. No cycle is possible (nothing is being built)
    // and creation's gate is not needed; a longer-lived creation must not keep it, though.
    try checkAliveCapture(parent: parent, fallbackTag: fallbackTag, in: container)
    if copyAlive(into: out) { return }
    try ResolutionContext.outermost(
      parent, in: container, initializing: (out, layout)
    ) { parent throws(ResolutionError) in
      try createTransient(into: out, in: container, parent: parent, fallbackTag: fallbackTag)
    }
  }

  private func createTransient(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = parent.joined()
    if parent.holdsPublications {
      let held = parent.heldCreation(of: self)
      if held.isHeld, let object = held.object {
        out.takeBits(of: storage, layout, handingOver: object)
        return
      }
    }
    try parent.check(self, fallbackTag: fallbackTag, in: container)
    try parent.checkCapture(of: self, fallbackTag: fallbackTag, in: container)
    try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) -> Bool in
      // Another thread may have made it while this one waited for the gate.
      if copyAlive(into: out) { return false }
      return try parent.enter(self, fallbackTag: fallbackTag, in: container) {
        frame throws(ResolutionError) -> Bool in
        try frame.make(maker, into: out, for: self, in: container)
        let (instanceObject, dynamicType) = out.object(layout)
        guard let instanceObject else {
          out.destroy(layout)
          throw .transientValueType(self, frame: frame, instanceType: dynamicType, in: container)
        }
        allocateStorage()
        // The bits are written while no instance is alive, so no reader copies them now.
        out.copyBits(into: storage, layout)
        guard parent.holdsPublications else {
          cell?.withLock { $0.alive = instanceObject }
          return false
        }
        // Shared once the resolution's steps ran; until then its object is kept alive here.
        parent.holdUntilEnd(
          self, object: instanceObject,
          commit: { self.cell?.withLock { $0.alive = instanceObject } }, abandon: {})
        return true
      }
    }
  }

  /// The captive check for a request that may be served the live instance: a persistent or
  /// cached creation under way must not keep it, alive or not.
  ///
  /// Out of line: outside such a creation it reads one thread-local counter.
  @usableFromInline @inline(never)
  func checkAliveCapture(
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?, in container: Container
  ) throws(ResolutionError) {
    guard _ThreadState.isCreatingShared else { return }
    try parent.joined().checkCapture(of: self, fallbackTag: fallbackTag, in: container)
  }

  /// A strong reference to the transient instance's object if it is still alive, taken by
  /// loading the weak reference.
  @usableFromInline
  func aliveObject() -> AnyObject? { cell?.withLock { $0.alive } }

  /// Copies the transient instance into `out` if it is still alive: what the resolve's
  /// specialized code tries first, inline, with `T` known (so the copy is a few moves).
  @inlinable @inline(__always)
  func copyAlive<T>(into out: _InstanceSlot, as _: T.Type) -> Bool {
    guard let object = aliveObject() else { return false }
    // The bits refer to `object` and nothing else: hand over the reference the load took
    // instead of retaining again. While it is held the object lives, so no creation rewrites
    // the bits.
    out.takeBits(of: storage, as: T.self, handingOver: object)
    return true
  }

  /// `copyAlive(into:as:)` for a bound type known only by its layout.
  private func copyAlive(into out: _InstanceSlot) -> Bool {
    guard let object = aliveObject() else { return false }
    out.takeBits(of: storage, layout, handingOver: object)
    return true
  }

  // MARK: Cached

  @inline(never)
  private func resolveCached(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try ResolutionContext.outermost(
      parent, in: container, initializing: (out, layout)
    ) { parent throws(ResolutionError) in
      try createCached(into: out, in: container, parent: parent, fallbackTag: fallbackTag)
    }
  }

  private func createCached(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = parent.joined()
    if parent.holdsPublications, parent.heldCreation(of: self).isHeld {
      out.initialize(copying: storage)
      return
    }
    try parent.check(self, fallbackTag: fallbackTag, in: container)
    try parent.checkCapture(of: self, fallbackTag: fallbackTag, in: container)
    try withCreationLock(for: self, fallbackTag: fallbackTag, parent: parent, in: container) {
      () throws(ResolutionError) -> Bool in
      let (made, current) = cachedGenerations()
      allocateStorage()
      if made != 0 {
        if made == current {
          out.initialize(copying: storage)
          return false
        }
        dropInstance()
      }
      let list = container.disposals
      let tracked = try beginTrackedCreation(
        in: list, scopeClosed: false, parent: parent, in: container)
      var handedOver = false
      defer { if tracked, !handedOver { list.endCreation() } }
      try make(
        maker, into: storage.slot(layout), in: container, parent: parent,
        fallbackTag: fallbackTag)
      guard parent.holdsPublications else {
        cell?.withLock { $0.generation = current }
        recordDisposal(in: list)
        try refuseIfClosedMeanwhile(list, tracked: tracked, parent: parent, in: container)
        out.initialize(copying: storage)
        return false
      }
      out.initialize(copying: storage)
      holdPublication(in: parent, list: list, tracked: tracked) {
        self.cell?.withLock { $0.generation = current }
      }
      handedOver = true
      return true
    }
  }

  /// The generation the cached instance was made in (0 for none) and the group's current one.
  private func cachedGenerations() -> (made: UInt, current: UInt) {
    cell?.withLock { ($0.generation, $0.group?.generation ?? 1) } ?? (0, 1)
  }

  /// Puts a cached instance in, as if the factory had made it now; `write` initializes the
  /// memory.
  func store(
    in container: Container, _ write: (_InstanceSlot) -> Void
  ) throws(ResolutionError) {
    try withCreationLock(for: self, fallbackTag: nil, parent: .topLevel, in: container) {
      allocateStorage()
      let (made, current) = cachedGenerations()
      if made != 0 { dropInstance() }
      write(storage.slot(layout))
      cell?.withLock { $0.generation = current }
      // Disposed like an instance its factory made: at close(group) or shutdown().
      recordDisposal(in: container.disposals)
      return false
    }
  }

  func dropInstanceIfIdle() {
    _ = ifCreationLockAvailable {
      if cachedGenerations().made != 0 { dropInstance() }
    }
  }

  /// Destroys the cached instance; called holding the creation gate.
  private func dropInstance() {
    storage.destroy(layout)
    cell?.withLock { $0.generation = 0 }
  }
}

/// What a transient or cached binding keeps besides its instance.
struct LifetimeCell {
  /// Transient: the object of the shared instance, while someone holds it.
  weak var alive: AnyObject?
  /// Cached: the group generation the instance was made in; 0 when there is none (generations
  /// start at 1).
  var generation: UInt = 0
  /// Cached: the group, owned by the container (which also owns the binding).
  weak var group: CacheGroupState?
}
