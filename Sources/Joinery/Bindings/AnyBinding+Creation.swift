public import JoineryEngine

/// Builds an instance of the bound type into the slot, from a resolver and the request's
/// runtime arguments (``_Arguments/none`` for a binding that takes none, which never reads them).
@usableFromInline typealias Maker =
  @Sendable (borrowing Resolver, borrowing _Arguments, borrowing _InstanceSlot) throws -> Void

/// The tag a request asked with, when the untagged binding served it (a fallback).
///
/// The engine's ``_BorrowedTag``: a reference to the caller's value, so that the common path
/// allocates nothing. It becomes a ``BindingTag`` only when an error report needs it.
@usableFromInline typealias RequestedTag = _BorrowedTag

extension _BorrowedTag {
  /// The tag as a value that outlives the request.
  var tag: BindingTag { BindingTag(box: _TagBox(copy)) }
}

/// How a binding's factory runs, and the one synchronous creation of a kept instance
/// (``createKept(into:in:parent:fallbackTag:home:disposals:)``).
extension AnyBinding {
  /// Makes the instances of this binding's cache group anew on their next resolve, dropping the
  /// current one if no creation is using it (``CacheGroupState/reset(marking:)``).
  func dropInstanceIfIdle() {
    if isAsync {
      cell?.withLock { $0.slot = AsyncSlot() }
    } else {
      _ = ifCreationLockAvailable {
        if cachedGenerations().made != 0 { dropInstance() }
      }
    }
  }

  /// A new instance from a binding with runtime arguments (always ephemeral).
  @usableFromInline
  func make(
    arguments: borrowing _Arguments, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try parent.enter(self, fallbackTag: fallbackTag, in: container) {
      frame throws(ResolutionError) in
      try frame.make(maker, arguments: arguments, into: out, for: self, in: container)
    }
  }

  // MARK: Kept instances

  /// Makes the instance a persistent, cached or transient binding keeps unless it has one, and
  /// copies it into `out`: the one synchronous creation of a kept instance, also used for a
  /// scope's instance (in the scope's `home` for this binding, its disposal in the scope's list,
  /// `disposals`).
  ///
  /// Under the home's creation gate, which makes the instance exactly once. Inside a
  /// resolution with `initCompleted` steps, the instance is published only once they ran. How
  /// it is kept and published is the lifetime's: see ``copyIfKept(into:from:generation:)``,
  /// ``keep(_:in:fallbackTag:parent:in:)`` and ``publishKept(in:generation:object:)``.
  @inline(never)
  func createKept(
    into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?,
    home: InstanceHome? = nil, disposals: DisposalList? = nil
  ) throws(ResolutionError) {
    let home = home ?? self
    try ResolutionContext.outermost(
      parent, in: container, initializing: out.cleanup(layout)
    ) { parent throws(ResolutionError) in
      let parent = parent.joined()
      // Made earlier in this resolution, whose steps have yet to run: in `storage` already (a
      // transient one's object kept alive by the resolution).
      if parent.holdsPublications {
        let held = parent.heldCreation(of: home)
        if held.isHeld {
          if let object = held.object {
            out.takeBits(of: home.storage, layout, handingOver: object)
          } else {
            out.initialize(copying: home.storage)
          }
          return
        }
      }
      try parent.check(self, fallbackTag: fallbackTag, in: container)
      // A cached or transient instance ends before the container: a longer-lived creation must
      // not keep it.
      if cell != nil { try parent.checkCapture(of: self, fallbackTag: fallbackTag, in: container) }
      // Instances the container keeps are not made after shutdown (their disposal would never
      // run).
      if !isWeaklyShared, container.disposals.isClosed {
        throw .shutDown(key, scopeClosed: false, parent: parent, in: container)
      }
      try home.withCreationLock(
        for: self, fallbackTag: fallbackTag, parent: parent, in: container
      ) { () throws(ResolutionError) -> Bool in
        // Only a cached binding has generations (and a cell, which a transient one has too).
        let generation =
          cell == nil || isWeaklyShared ? (made: 0, current: 0) : cachedGenerations()
        // Another thread may have made it while this one waited for the gate.
        if copyIfKept(into: out, from: home, generation: generation) { return false }
        home.allocateStorage()
        if generation.made != 0 { dropReplacedInstance(in: container) }
        let list = disposals ?? container.disposals
        let tracked = try beginTrackedCreation(
          in: list, scopeClosed: disposals != nil, parent: parent, in: container)
        var handedOver = false
        defer { if tracked, !handedOver { list.endCreation() } }
        try make(maker, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
        let object = try keep(
          out, in: home, fallbackTag: fallbackTag, parent: parent, in: container)
        guard parent.holdsPublications else {
          publishKept(in: home, generation: generation.current, object: object)
          recordDisposal(in: list, home: home)
          do throws(ResolutionError) {
            try refuseIfClosedMeanwhile(list, tracked: tracked, parent: parent, in: container)
          } catch {
            out.destroy(layout)
            throw error
          }
          return false
        }
        holdPublication(in: parent, home: home, list: list, tracked: tracked, object: object) {
          self.publishKept(in: home, generation: generation.current, object: object)
        }
        handedOver = true
        return true
      }
    }
  }

  /// Copies the instance `home` keeps now into `out`, if there is one: a persistent or scoped
  /// one once made, a cached one made in the group's current generation, a transient one
  /// someone still holds.
  @inline(__always)
  private func copyIfKept(
    into out: borrowing _InstanceSlot, from home: InstanceHome,
    generation: (made: UInt, current: UInt)
  ) -> Bool {
    if isWeaklyShared { return copyAlive(into: out) }
    guard cell == nil ? home.isReady : generation.made == generation.current else { return false }
    out.initialize(copying: home.storage)
    return true
  }

  /// Keeps the instance just made in `out` in `home`, and returns a transient instance's
  /// object.
  ///
  /// The home's storage gets a copy; for a transient binding, whose instance must be an object,
  /// only its bits, which do not own the object (the weak reference in ``cell`` says whether
  /// they may be read).
  private func keep(
    _ out: borrowing _InstanceSlot, in home: InstanceHome, fallbackTag: RequestedTag?,
    parent: borrowing ResolutionContext, in container: Container
  ) throws(ResolutionError) -> AnyObject? {
    guard isWeaklyShared else {
      out.copy(into: home.storage)
      return nil
    }
    let (object, dynamicType) = out.object(layout)
    guard let object else {
      out.destroy(layout)
      throw .transientValueType(
        self, fallbackTag: fallbackTag, parent: parent, instanceType: dynamicType, in: container)
    }
    // Written while no instance is alive, so no reader copies them now.
    out.copyBits(into: storage, layout)
    return object
  }

  /// Publishes the instance just kept in `home`: a persistent or scoped one by `isReady`, a
  /// cached one by the group `generation` it was made in, a transient one by the weak
  /// reference to its `object`.
  private func publishKept(in home: InstanceHome, generation: UInt, object: AnyObject?) {
    if let object {
      cell?.withLock { $0.alive = object }
    } else if let cell {
      cell.withLock { $0.generation = generation }
    } else {
      home.publishReady()
    }
  }

  /// For a binding with a disposer, starts a creation that `list`'s closer waits for.
  ///
  /// Throws ``ResolutionError/Code/shutDown`` if `list` closed already. Returns whether it
  /// started one (end it with `list.endCreation()`).
  func beginTrackedCreation(
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
  func refuseIfClosedMeanwhile(
    _ list: DisposalList, tracked: Bool, parent: borrowing ResolutionContext,
    in container: Container
  ) throws(ResolutionError) {
    if tracked, list.isClosed {
      throw .closedMeanwhile(
        self, scopeClosed: list !== container.disposals, parent: parent, in: container)
    }
  }

  /// Hands the instance just made in `home` to `parent`'s resolution, which publishes it
  /// (`publish`, then its disposal recorded in `list`) once its `initCompleted` steps ran, or
  /// discards it if the resolution fails; either ends the tracked creation.
  ///
  /// A transient instance's `object` is kept alive by the resolution until then; its bits in
  /// the home's storage own nothing, so discarding it leaves them.
  func holdPublication(
    in parent: borrowing ResolutionContext, home: InstanceHome, list: DisposalList,
    tracked: Bool, object: AnyObject? = nil, publish: @escaping () -> Void
  ) {
    parent.holdUntilEnd(
      self, home: home, object: object,
      commit: {
        publish()
        self.recordDisposal(in: list, home: home)
        if tracked { list.endCreation() }
      },
      abandon: {
        if object == nil { self.abandonInstance(in: home, list: list) }
        if tracked { list.endCreation() }
      })
  }

  /// Discards the instance in `home`, made in a resolution that then failed and never
  /// published: its disposal is recorded in `list` all the same (it may hold resources), and a
  /// later request makes a new one.
  private func abandonInstance(in home: InstanceHome, list: DisposalList) {
    recordDisposal(in: list, home: home)
    home.storage.destroy(layout)
  }
}

/// What a transient, cached or async binding keeps besides its instance.
struct LifetimeCell {
  /// Transient: the object of the shared instance, while someone holds it.
  weak var alive: AnyObject?
  /// Cached: the group generation the instance (async: ``slot``'s) was made in; 0 when there is
  /// none (generations start at 1).
  var generation: UInt = 0
  /// Cached: the group, owned by the container (which also owns the binding).
  weak var group: CacheGroupState?
  private var asyncSlot: AsyncSlotBox?

  /// Async: the instance (persistent, cached) or the creation under way (also transient, which
  /// keeps only `alive` once made); a persistent or cached one is made in a task of its own.
  ///
  /// In a box made on first use: a synchronous binding's cell needs none, and an `AsyncSlot`
  /// kept inline made every cell larger, which cost a build of 1,000 bindings about 24,000
  /// instructions in `malloc`.
  var slot: AsyncSlot {
    get { asyncSlot?.slot ?? AsyncSlot() }
    _modify {
      let box = asyncSlot ?? AsyncSlotBox()
      asyncSlot = box
      yield &box.slot
    }
  }

  /// Where ``slot`` lives; reached only holding the cell's lock.
  private final class AsyncSlotBox {
    var slot = AsyncSlot()
  }
}
