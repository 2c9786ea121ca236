internal import JoineryEngine

/// State that lives as long as one top-level resolve.
@usableFromInline
struct _RootState: ~Copyable {
  /// The `graph` instances made in this resolution, by binding.
  ///
  /// When the top-level binding is a `graph` binding, the first ones live on the top-level call's stack, so such a resolve
  /// allocates nothing for them; other resolutions do not pay for the stack space.
  var graph: _GraphInstances
  /// Whether the resolution started on the main actor (a main-actor caller),
  /// so main-actor factories may run in it.
  var isOnMainActor = false
  /// The actor the caller that started the resolution is isolated to, if any: compared with
  /// the main actor only when a main-actor factory asks (``ResolutionContext/isOnMainActor``).
  var callerIsolation: ObjectIdentifier? = nil
  /// The scope this resolution resolves scoped bindings in, if it was made in one.
  ///
  /// Not retained: the request that started the resolution holds it.
  var scope: _Unretained<Scope>?
  /// `initCompleted` steps waiting for the resolution to end, made on first use.
  var completions = _Owned<_PendingCompletions>()
  /// What the `Lazy` values made in this resolution remember of its `graph` instances
  /// (``_GraphMemory``), made on first use.
  var memory = _Owned<_GraphMemory>()

  /// Runs one top-level resolution with fresh root state, and ends it.
  ///
  /// `graphSlots`: whether
  /// to keep the first `graph` instances on this call's stack (a `graph` binding at the top).
  @inline(__always)
  static func resolution<R>(
    of container: Container, onMainActor: Bool = false, callerIsolation: ObjectIdentifier? = nil,
    scope: _Unretained<Scope>? = nil, graphSlots: Bool = false,
    _ body: (borrowing _Root) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try _GraphInstances.making(onStack: graphSlots) { graph throws(ResolutionError) -> R in
      try resolution(
        of: container, onMainActor: onMainActor, callerIsolation: callerIsolation, scope: scope,
        graph: graph, body)
    }
  }

  @inline(__always)
  private static func resolution<R>(
    of container: Container, onMainActor: Bool, callerIsolation: ObjectIdentifier?,
    scope: _Unretained<Scope>?, graph: _GraphInstances,
    _ body: (borrowing _Root) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    var root = _ChainRoot(
      _RootState(
        graph: graph, isOnMainActor: onMainActor,
        callerIsolation: callerIsolation, scope: scope))
    defer {
      root.state.endMemory()
      #if JOINERY_INTERNAL_CHECKS
        root.state._checkInvariants()
      #endif
      root.state.graph.end()
    }
    return try _Root.lend(&root) { root throws(ResolutionError) -> R in
      let result: R
      do throws(ResolutionError) {
        result = try body(root)
      } catch {
        root.state.completions.read { $0.abandonHeld() }
        throw error
      }
      guard !root.state.completions.isEmpty else { return result }
      do throws(ResolutionError) {
        try runCompletions(root)
      } catch {
        // The resolve fails: nothing it made is published, and the instance it made for its
        // caller is not handed over.
        root.state.completions.read {
          $0.abandonHeld()
          $0.callerInstance.take()?.destroy()
        }
        throw error
      }
      root.state.completions.read { $0.commitHeld() }
      return result
    }
  }

  #if JOINERY_INTERNAL_CHECKS
    /// Checks the contract of a resolution that has just ended (see `_internalCheck`): its
    /// `graph` instances are consistent, every creation it held was published or abandoned
    /// (its gate released), and its `Lazy` memory was let go. (That the thread runs the level
    /// it ran before is the engine's check, in ``_ChainRootHandle/lend(_:_:)``.)
    ///
    /// Out of line, so that a debug build's stack per level does not grow.
    @inline(never)
    func _checkInvariants() {
      graph._checkInvariants()
      _internalCheck(memory.isEmpty, "a resolution ended holding its graph memory")
      _internalCheck(heldBindings.isEmpty, "a resolution ended holding unpublished creations")
    }
  #endif

  /// Whether shared instances made now must wait for the end of this resolution to be
  /// published: once an `initCompleted` step is pending, anything made may hold an instance
  /// whose step has not run.
  var holdsPublications: Bool { !completions.isEmpty }

  /// Whether this resolution has a memory for `Lazy` values (``graphMemory()``).
  var hasMemory: Bool { !memory.isEmpty }

  /// Keeps the creation gate of `home`, and the publication of the instance `binding` just
  /// made there, until this resolution ends.
  ///
  /// `commit` publishes it once every step ran, `abandon` discards it if the resolution
  /// fails. `object`: a transient instance's object, kept alive meanwhile.
  mutating func hold(
    _ binding: AnyBinding, home: InstanceHome, object: AnyObject?,
    commit: @escaping () -> Void, abandon: @escaping () -> Void
  ) {
    _ = completions.read {
      $0.held.append(
        _PendingCompletions.Held(
          binding: binding, home: home, object: object, commit: commit, abandon: abandon))
    }
  }

  /// The held creation in `home` in this resolution, if there is one: its instance is already
  /// made, so requests in this resolution are served it.
  func held(_ home: InstanceHome) -> _PendingCompletions.Held? {
    completions.read { queue in queue.held.first { $0.home === home } } ?? nil
  }

  /// The bindings whose instances this resolution made and holds unpublished, gates kept.
  var heldBindings: [AnyBinding] {
    completions.read { $0.held.map(\.binding) } ?? []
  }

  /// Keeps `instance`, just made by `binding`, for its `initCompleted` step at the end of this
  /// resolution.
  mutating func enqueueCompletion(of binding: AnyBinding, in container: Container, _ instance: Any)
  {
    completions.readMaking(_PendingCompletions.init) {
      $0.items.append(
        _PendingCompletions.Item(binding: binding, container: container, instance: instance))
    }
  }

  /// Runs the `initCompleted` steps of the instances this resolution made, in the order they
  /// were made, each in a frame of its binding in this same resolution (so `graph` instances
  /// are shared, and its own binding counts for cycles).
  ///
  /// Steps may make instances with steps
  /// of their own; a resolution that keeps doing so (back-references through ephemeral
  /// bindings never close) stops at the container's maximum depth.
  @inline(never)
  static func runCompletions(_ root: borrowing _Root) throws(ResolutionError) {
    var ran = 0
    while let item = root.state.completions.read({ $0.next() }) ?? nil {
      ran += 1
      let level = _FrameLevel(fallbackTag: nil, container: item.container)
      try root.first(item.binding, level: level) { frame throws(ResolutionError) in
        let context = ResolutionContext(frame: frame.duplicated())
        if ran > item.container.maximumDepth {
          throw .completionsNeverEnd(item.binding, frame: context, in: item.container)
        }
        guard let completion = item.binding.completion else { return }
        do {
          try frame.running { () throws in
            try completion(Resolver(frame: _FrameReference(frame)), item.instance)
          }
        } catch let error as ResolutionError {
          throw error
        } catch {
          throw .completionFailed(item.binding, frame: context, error: error, in: item.container)
        }
      }
    }
  }

  /// Copies the instance `binding`, a `graph` binding, already made in this resolution into
  /// `slot`; returns whether there was one.
  @inline(__always)
  func copyGraphInstance(of binding: AnyBinding, into slot: borrowing _InstanceSlot) -> Bool {
    graph.copyInstance(for: _Owner(binding), into: slot)
  }

  /// Keeps a copy of `slot`'s instance, the instance of a `graph` binding, until the
  /// resolution ends.
  @inline(__always)
  mutating func storeGraphInstance(copyOf slot: borrowing _InstanceSlot, for binding: AnyBinding) {
    graph.store(
      copyOf: slot, owner: _Owner(binding), layout: binding.layout)
  }
}

/// The instances whose `initCompleted` step waits for the end of their resolution.
final class _PendingCompletions {
  struct Item {
    let binding: AnyBinding
    let container: Container
    let instance: Any
  }

  /// A shared instance made in this resolution, published when it ends
  /// (``_RootState/hold(_:home:object:commit:abandon:)``).
  struct Held {
    let binding: AnyBinding
    /// Where the instance lives, whose gate the resolution keeps.
    let home: InstanceHome
    let object: AnyObject?
    let commit: () -> Void
    let abandon: () -> Void
  }

  var items: [Item] = []
  private var taken = 0
  /// In the order the instances were made.
  var held: [Held] = []
  /// The caller's memory the top-level instance was made in: a step that throws fails the
  /// resolve, so that instance is destroyed (its caller takes the memory for uninitialized).
  var callerInstance: _InstanceCleanup?

  /// Publishes every held instance, in the order they were made, and opens their gates.
  func commitHeld() {
    let all = held
    held = []
    for item in all {
      item.commit()
      item.home.releaseHandedOverGate()
    }
  }

  /// Discards every held instance, newest first, and opens their gates: a later request
  /// makes it again.
  func abandonHeld() {
    let all = held
    held = []
    for item in all.reversed() {
      item.abandon()
      item.home.releaseHandedOverGate()
    }
  }

  /// The next step to run, in the order the instances were made.
  func next() -> Item? {
    guard taken < items.count else { return nil }
    defer { taken += 1 }
    return items[taken]
  }
}

/// The `graph` instances of one resolution that outlive a thread's stack: what the later
/// resolves of that resolution start from.
///
/// A synchronous resolution keeps its instances in its root state (``_RootState/graph``, the
/// first ones on its thread's stack); this memory is for what outlives it, in two kinds:
/// - **Remembering** (what a ``Lazy`` made during a resolution keeps, so that resolving it later
///   closes back-references on the same graph, as Swinject's `Lazy` does): instances are kept
///   weakly, so a `Lazy` never keeps its graph alive, and once nothing else holds an instance a
///   later `get()` makes a new one. Only class instances are remembered (a value has no
///   identity to keep).
/// - **Holding** (an async resolution: ``AsyncPath/graph``): one graph across its tasks.
///   - Its async `graph` bindings' instances are creations its requests share (``claim(_:)``).
///   - Its synchronous resolves run one at a time (``alone(_:)``), each starting from the
///     instances of those before it: every instance, values included, is held until
///     ``endHolding()`` (when the async resolution ends), then only remembered, as above, for
///     the `Lazy` values made in it.
///
/// The resolutions started from a memory remember their own `graph` instances in it too, so
/// every request of one graph keeps seeing the same instances.
// `@unchecked`: the atomic word is touched only through `_AtomicWordsHolder`; everything else is
// `let` or protected by a lock.
final class _GraphMemory: _AtomicWordsHolder, AsyncRegion, @unchecked Sendable {
  /// Word 0: the thread running a resolution ``alone(_:)``, or 0; written by that thread only,
  /// holding the lock, so a thread reads its own identity there only while it holds it.
  private final var aloneThread: UInt = 0

  private struct Entry {
    let binding: AnyBinding
    /// The instance while the memory holds its instances, when it is a class instance.
    var heldObject: AnyObject?
    /// The instance while the memory holds its instances, when it is any other value.
    var heldValue: Any?
    /// Otherwise: the class instance, remembered weakly (a value holding one, its object).
    weak var object: AnyObject?

    /// What a later resolution starts from, if the instance is still alive.
    var living: Living? {
      if heldObject != nil || heldValue != nil {
        return Living(binding: binding, object: heldObject, value: heldValue)
      }
      return object.map { Living(binding: binding, object: $0, value: nil) }
    }
  }

  /// A `graph` instance found alive: its object (a class instance, or the object a value of the
  /// bound type holds), or the value itself.
  private struct Living {
    let binding: AnyBinding
    let object: AnyObject?
    let value: Any?
  }

  /// The async `graph` bindings' slots, reached only holding the memory's lock.
  private final class Creations {
    var slots = AsyncSlots()
  }

  private struct State {
    var entries: [ObjectIdentifier: Entry] = [:]
    var isHolding: Bool
    /// The async `graph` bindings' instances and their creations under way, while holding;
    /// made on first use: most async resolutions have none, and an empty table kept inline
    /// cost every one its copy and destruction (about 100 instructions).
    var creations: Creations?
    /// Whether a `Lazy` was given this memory: what it holds is then remembered when holding
    /// ends, else let go.
    var isHandedOut = false
  }

  private let lock = _Lock.make()
  // Reached only holding `lock` (``withState(_:)``), which makes every access exclusive.
  @safe @exclusivity(unchecked) private var state: State
  /// Held while a resolution runs ``alone(_:)``; only a holding memory has one.
  private let aloneLock: _Lock?

  /// A memory that remembers weakly (`holding` false) or holds its instances until
  /// ``endHolding()``.
  init(holding: Bool = false) {
    state = State(isHolding: holding)
    aloneLock = holding ? _Lock.make() : nil
    _checkAtomicWordsLayout(&aloneThread)
  }

  @inline(__always)
  private func withState<R>(_ body: (inout State) -> R) -> R {
    lock.withLock { body(&state) }
  }

  /// Runs one synchronous resolution of a holding memory's graph while no other runs (every
  /// resolution started from the memory: ``run(_:tag:in:scope:memory:marker:_:)``).
  ///
  /// The async resolution's tasks (`async let` siblings, say, or a `Lazy` made in it) may
  /// resolve at the same moment;
  /// one at a time, each starts from the instances of those before it, so that a synchronous
  /// `graph` binding has one instance in it. A resolution never suspends, so the wait is short
  /// and the lock is released by the thread that took it. The lock is taken before any
  /// creation gate of the resolution, and a thread inside a factory (the only place a gate is
  /// held) never takes it: a `Lazy` read there joins the factory's own chain
  /// (`Provider.get(inGraph:)`). So a thread holding a gate never waits for it, and the lock
  /// needs no place in the wait registry (`AsyncGraphSharingTests`, a probe that would deadlock
  /// otherwise). A resolution that starts another one on its own thread runs it without
  /// waiting.
  func alone<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    guard let aloneLock else { return try body() }
    let thread = _ThreadIdentity.current
    if _loadRelaxed(0) == thread { return try body() }
    return try aloneLock.withLock { () throws(E) -> R in
      _storeRelaxed(0, thread)
      defer { _storeRelaxed(0, 0) }
      return try body()
    }
  }

  /// The async resolution's instances of async `graph` bindings (``AsyncRegion``).
  func claimShared(_ binding: AnyBinding) -> AsyncClaim {
    withState { state in
      let creations = state.creations ?? Creations()
      state.creations = creations
      return creations.slots.claim(ObjectIdentifier(binding))
    }
  }

  /// Keeps `made` only while the memory holds: a creation that ends after the resolution did
  /// leaves nothing behind.
  func endShared(_ binding: AnyBinding, _ made: AsyncInstance) -> AsyncCreation? {
    withState { state in
      state.creations?.slots.end(ObjectIdentifier(binding), state.isHolding ? made : .none)
    }
  }

  var disposalList: DisposalList? { nil }

  /// Remembers `root`'s `graph` instances: every one while holding, else the class instances.
  fileprivate func remember(_ root: borrowing _RootState) {
    // Entries replaced by other instances: released after the lock, as a deinit may reach
    // this memory. An instance already kept is left as it is.
    var replaced: [Entry] = []
    lock.lock()
    root.forEachGraphInstance { binding, instance in
      let key = ObjectIdentifier(binding)
      var entry = Entry(binding: binding)
      if binding.layout.isReference {
        // One class reference: read without opening the type.
        let object = instance.loadReference()
        let kept = state.entries[key].flatMap { $0.heldObject ?? $0.object }
        if kept === object { return }
        if state.isHolding { entry.heldObject = object } else { entry.object = object }
      } else if state.isHolding {
        entry.heldValue = instance.load(binding.layout)
      } else {
        guard let object = instance.object(binding.layout).0 else { return }
        entry.object = object
      }
      if let old = state.entries.updateValue(entry, forKey: key) { replaced.append(old) }
    }
    lock.unlock()
    withExtendedLifetime(replaced) {}
  }

  /// Marks the memory as given to a `Lazy`: when it stops holding, it remembers.
  func handOut() {
    withState { $0.isHandedOut = true }
  }

  /// Stops holding, when the async resolution ends: its instances are only remembered from
  /// now on (weakly, and only when a `Lazy` was given the memory), and its async creations are
  /// let go.
  func endHolding() {
    let released = withState {
      state -> ([ObjectIdentifier: Entry], Creations?) in
      state.isHolding = false
      let creations = state.creations
      state.creations = nil
      let entries = state.entries
      if state.isHandedOut {
        for (key, entry) in state.entries {
          var remembered = Entry(binding: entry.binding)
          remembered.object = entry.heldObject ?? entry.heldValue.flatMap(Self.object(in:))
          state.entries[key] = remembered
        }
      } else {
        state.entries = [:]
      }
      return (entries, creations)
    }
    // The instances are released here, outside the lock: a deinit may reach this memory.
    withExtendedLifetime(released) {}
  }

  /// The class instance `value` is or holds, if any.
  private static func object(in value: Any) -> AnyObject? {
    type(of: value) is AnyObject.Type ? value as AnyObject : nil
  }

  /// Calls `body` with each remembered instance still alive, holding the memory's lock (`body`
  /// runs no code of the app's); none when `target`'s remembered instance is gone.
  ///
  /// A graph rebuilt around its survivors would have them hold the new instance (a child holding
  /// the parent it was rebuilt under, which holds the child): rebuilt from scratch, it makes
  /// no such ring.
  private func forEachLiving(target: AnyBinding?, _ body: (Living) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    if let target, let entry = state.entries[ObjectIdentifier(target)], entry.living == nil {
      return
    }
    for entry in state.entries.values {
      if let living = entry.living { body(living) }
    }
  }

  /// Resolves `Value` (with `tag`) in a new resolution that starts with the remembered
  /// instances as its `graph` instances, and remembers the ones it adds; says whether the
  /// instance is one of the remembered ones.
  static func resolve<Value>(
    _: Value.Type, tag: BindingTag?, matching: TagMatching = .allowingFallback,
    in container: Container, scope: Scope?, memory: _GraphMemory, target: AnyBinding? = nil
  ) throws(ResolutionError) -> (value: Value, isBackReference: Bool) {
    let (value, living) = try run(Value.self, tag: tag, in: container, scope: scope, memory: memory)
    {
      context throws(ResolutionError) -> Value in
      // A binding the module that made the `Lazy` keeps private: made as it is, not looked up.
      if let target {
        return try container.instance(of: target, as: Value.self, parent: context, fallbackTag: nil)
      }
      guard let tag else { return try container.resolve(Value.self, parent: context) }
      return try container.resolve(Value.self, tag: tag, matching: matching, parent: context)
    }
    guard type(of: value as Any) is AnyObject.Type else { return (value, false) }
    let object = value as AnyObject
    return (value, living.contains { $0 === object })
  }

  /// Runs `body` in a new resolution that starts with the remembered instances as its `graph`
  /// instances (none if the instance of `type`'s binding is gone), and remembers the ones it
  /// adds.
  ///
  /// `marker`: a binding being created above this resolution (an async factory's), for the
  /// captive check (``ResolutionContext/marked(_:scope:marker:_:)``).
  static func run<R>(
    _ type: Any.Type, tag: BindingTag?, in container: Container, scope: Scope?,
    memory: _GraphMemory, marker: AnyBinding? = nil, callerIsolation: ObjectIdentifier? = nil,
    _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    var unused: [AnyObject] = []
    return try memory.alone { () throws(ResolutionError) -> R in
      try runAlone(
        type, tag: tag, in: container, scope: scope, memory: memory, marker: marker,
        callerIsolation: callerIsolation, living: &unused, keepsLiving: false, body)
    }
  }

  private static func run<R>(
    _ type: Any.Type, tag: BindingTag?, in container: Container, scope: Scope?,
    memory: _GraphMemory, marker: AnyBinding? = nil, callerIsolation: ObjectIdentifier? = nil,
    _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> (value: R, living: [AnyObject]) {
    var living: [AnyObject] = []
    let value = try memory.alone { () throws(ResolutionError) -> R in
      try runAlone(
        type, tag: tag, in: container, scope: scope, memory: memory, marker: marker,
        callerIsolation: callerIsolation, living: &living, keepsLiving: true, body)
    }
    return (value, living)
  }

  private static func runAlone<R>(
    _ type: Any.Type, tag: BindingTag?, in container: Container, scope: Scope?,
    memory: _GraphMemory, marker: AnyBinding?, callerIsolation: ObjectIdentifier?,
    living found: inout [AnyObject],
    keepsLiving: Bool, _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    let key = BindingKey(type, boxed: tag)
    let target = (container.lookup(key) ?? container.lookup(BindingKey(type, boxed: nil)))?.binding
    let value = try ResolutionContext.marked(
      container, scope: scope.map { _Unretained($0) }, marker: marker,
      callerIsolation: callerIsolation, graphSlots: true
    ) {
      context throws(ResolutionError) -> R in
      let root = context.frame!.root
      root.state.adopt(memory)
      memory.forEachLiving(target: target) { item in
        let binding = item.binding
        if keepsLiving, let object = item.object { found.append(object) }
        if binding.layout.isReference, let object = item.object {
          // The class instance is the value: its reference is copied as it is.
          _InstanceSlot.lending(object) { root.state.storeGraphInstance(copyOf: $0, for: binding) }
          return
        }
        // The instance as a value of the bound type (a protocol existential wrapping a
        // remembered object, say), written with that type's layout.
        guard let instance: Any = item.value ?? item.object else { return }
        func store<Bound>(_: Bound.Type) {
          guard let value = instance as? Bound else { return }
          _InstanceSlot.lending(value) { root.state.storeGraphInstance(copyOf: $0, for: binding) }
        }
        _openExistential(binding.layout.type, do: store)
      }
      return try body(context)
    }
    return value
  }
}

extension _RootState {
  /// This resolution's memory for the `Lazy` values made in it, created on first use.
  mutating func graphMemory() -> _GraphMemory {
    if let adopted = memory.read({ $0 }) {
      // An adopted memory (an async resolution's, or a `Lazy`'s) now has a `Lazy` of its own.
      adopted.handOut()
      return adopted
    }
    return memory.readMaking({ _GraphMemory() }, { $0 })
  }

  /// Makes `memory` this resolution's: its `graph` instances are remembered there when it ends.
  mutating func adopt(_ memory: _GraphMemory) {
    self.memory.replace(with: memory)
  }

  /// Remembers the `graph` instances in the memory, if a `Lazy` asked for one, and lets it go.
  @inline(__always)
  mutating func endMemory() {
    if !memory.isEmpty { rememberGraph() }
  }

  @inline(never)
  private mutating func rememberGraph() {
    guard let memory = memory.take() else { return }
    memory.remember(self)
  }

  /// Calls `body` with each `graph` instance's binding and a slot over the instance.
  func forEachGraphInstance(_ body: (AnyBinding, borrowing _InstanceSlot) -> Void) {
    graph.forEachInstance(of: AnyBinding.self, layout: { $0.layout }, body)
  }
}

extension ResolutionContext {
  /// The memory of the resolution this request belongs to (or that runs on this thread), for a
  /// `Lazy` made in it; `nil` for a request made outside any resolution.
  func graphMemory() -> _GraphMemory? {
    joined().frame?.root.state.graphMemory()
  }
}
