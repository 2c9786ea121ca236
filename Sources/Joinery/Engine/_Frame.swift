public import JoineryEngine

/// One binding being built in a resolution chain: the engine's level of a chain
/// (``_ChainHandle``), whose owner is the binding, kept on the stack of the thread resolving it.
///
/// Levels link to their parent, so the chain from the top-level resolve is always at hand for
/// cycle detection and error paths, without allocating anything.
@usableFromInline typealias _Frame = _ChainHandle<AnyBinding, _FrameLevel, _RootState>

/// A resolution's root state, as the engine lends it (``_ChainRootHandle``).
@usableFromInline typealias _Root = _ChainRootHandle<AnyBinding, _FrameLevel, _RootState>

/// What a frame keeps besides its binding.
@usableFromInline @frozen
struct _FrameLevel {
  /// The tag the request asked for when it was served by the untagged binding (fallback).
  @usableFromInline let fallbackTag: RequestedTag?
  /// The container whose factory this frame runs: what an instance made here remembers (an
  /// `@Injected` property declared in it), even when another container's factory asked for it.
  ///
  /// Not retained: the request that reached it holds the container.
  @usableFromInline let container: _Unretained<Container>

  @inlinable @inline(__always)
  init(fallbackTag: RequestedTag?, container: Container) {
    self.fallbackTag = fallbackTag
    self.container = _Unretained(container)
  }
}

extension _Frame {
  /// The binding being built (the container keeps it).
  var binding: AnyBinding { owner }

  /// The step this frame stands for in an error path.
  var step: ResolutionStep {
    let info = binding.info
    let requested =
      level.fallbackTag.map {
        BindingKey(info.key.type, boxed: $0.tag, argumentTypes: info.key.argumentTypes)
      }
      ?? info.key
    return ResolutionStep(requested: requested, binding: info)
  }

  /// The steps from the top-level request down to (and including) `frame`, then `last` if
  /// given, in one allocation.
  static func steps(
    to frame: consuming _Frame?, appending last: ResolutionStep?
  ) -> [ResolutionStep] {
    var current = frame
    // A top-level request (the common failed one) has no chain to walk.
    let depth = current?.depth ?? 0
    guard depth > 0 else { return last.map { [$0] } ?? [] }
    var steps: [ResolutionStep] = []
    steps.reserveCapacity(depth + (last == nil ? 0 : 1))
    // A depth-0 frame only marks where a main-actor resolution started.
    while let level = current, level.depth > 0 {
      steps.append(level.step)
      current = level.parent
    }
    steps.reverse()
    if let last { steps.append(last) }
    return steps
  }

  /// Throws if `binding` is already being built in this chain, the chain is too deep, or the
  /// thread's stack is nearly used up: constant work per level, whatever the depth
  /// (``_ChainLink/admit(_:maximumDepth:stackLimit:contains:)``).
  @inline(__always)
  static func check(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: borrowing _Frame,
    in container: Container
  ) throws(ResolutionError) {
    let verdict = parent.admit(binding, maximumDepth: container.maximumDepth)
    if verdict != .clear {
      try stop(binding, verdict, fallbackTag: fallbackTag, parent: parent, in: container)
    }
  }

  /// The address a frame keeps for `binding`.
  @inline(__always)
  static func owner(_ binding: AnyBinding) -> _Owner { _Owner(binding) }

  /// The error for a chain `binding` may not enter.
  @inline(never)
  static func stop(
    _ binding: AnyBinding, _ verdict: _ChainLink.Verdict, fallbackTag: RequestedTag?,
    parent: borrowing _Frame, in container: Container
  ) throws(ResolutionError) {
    guard case .tooDeep(let stackExhausted) = verdict else {
      throw .cycle(
        binding, fallbackTag: fallbackTag, parent: ResolutionContext(frame: parent.duplicated()),
        in: container)
    }
    throw .depthLimit(
      binding, fallbackTag: fallbackTag, parent: ResolutionContext(frame: parent.duplicated()),
      stackExhausted: stackExhausted, in: container)
  }

  /// Runs `body` with a new frame for `binding` pushed on the chain.
  ///
  /// A top-level request
  /// (`parent` is `nil`) made while a factory runs on this thread joins that factory's chain.
  /// `scope`: the scope a top-level request was made in, which the chain resolves scoped
  /// bindings in from then on.
  @inline(__always)
  static func enter<R>(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: consuming _Frame?,
    in container: Container, scope: _Unretained<Scope>? = nil,
    callerIsolation: ObjectIdentifier? = nil,
    graphSlots: Bool = false, _ body: (borrowing _Frame) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    if let parent = parent ?? _Frame.running {
      try check(binding, fallbackTag: fallbackTag, parent: parent, in: container)
      let level = _FrameLevel(fallbackTag: fallbackTag, container: container)
      if let scope, parent.root.state.scope?.isIdentical(to: scope) != true {
        // A request made in a scope inside a factory of another scope (or of none): the
        // chain resolves in the request's scope until it returns.
        let root = parent.root
        let saved = root.state.scope
        root.state.scope = scope
        defer { root.state.scope = saved }
        return try parent.push(binding, level: level, body)
      }
      return try parent.push(binding, level: level, body)
    }
    return try _RootState.resolution(
      of: container, callerIsolation: callerIsolation, scope: scope, graphSlots: graphSlots
    ) { root throws(ResolutionError) in
      try root.first(
        binding, level: _FrameLevel(fallbackTag: fallbackTag, container: container), body)
    }
  }
}

/// A factory's frame, as its ``Resolver`` holds it: the chain a request through the resolver
/// continues, and the container that runs the factory.
///
/// One word, so that lending a resolver to a factory writes one word; the frame outlives the
/// factory call, which is all a resolver may live.
@usableFromInline
struct _FrameReference: ~Copyable {
  @usableFromInline let frame: _Frame

  @inlinable @inline(__always)
  init(_ frame: borrowing _Frame) { self.frame = frame.duplicated() }

  /// The chain a request through the resolver continues.
  @inlinable @inline(__always)
  var context: ResolutionContext { ResolutionContext(frame: frame.duplicated()) }

  /// The container whose factory runs in the frame (not retained).
  @inlinable @inline(__always)
  var container: _Unretained<Container> { frame.level.container }
}

/// The resolution chain a request is made in: what bindings, diagnostics and the graph code
/// receive instead of a frame.
///
/// Lent for one call, it cannot be copied or kept.
///
/// A top-level request's context has no frame; when it builds something, it joins the chain of
/// a factory running on the same thread (``joined()``), so a resolve through a wrapper or a
/// captured container inside a factory is checked for cycles and depth like a nested one.
@usableFromInline @frozen
struct ResolutionContext: ~Copyable {
  /// The innermost frame of the chain, or `nil` for a top-level request (read it as
  /// ``frame``).
  @usableFromInline let heldFrame: _Frame?
  /// The scope a top-level request was made in (``Scope/resolve(_:tag:matching:arguments:isolation:)``); a chain keeps its scope
  /// in its root state.
  ///
  /// Not retained: the caller holds the scope for the whole request.
  @usableFromInline let requestScope: _Unretained<Scope>?
  /// The actor a top-level request's caller is statically isolated to (its `#isolation`), if
  /// any: a resolution it starts runs on the main actor when that actor is the main actor.
  @usableFromInline let callerIsolation: ObjectIdentifier?

  @inlinable
  init(frame: consuming _Frame?) {
    heldFrame = frame
    requestScope = nil
    callerIsolation = nil
  }

  /// The context of a request made outside any factory, by a caller with no isolation.
  @inlinable
  static var topLevel: ResolutionContext { ResolutionContext(frame: nil) }

  /// The innermost frame of the chain, or `nil` for a top-level request: a handle on it for
  /// code that runs while this context is lent.
  @inlinable
  var frame: _Frame? {
    @inline(__always) get {
      switch heldFrame {
      case .some(let frame): frame.duplicated()
      case .none: nil
      }
    }
  }

  /// Whether a request in this context starts a resolution of its own: it is made outside any
  /// factory, on a thread where no resolution is running.
  var startsResolution: Bool { frame == nil && _Frame.running == nil }

  /// The key of the binding whose factory made this request, or `nil` for a request made
  /// outside any factory (``Resolver/consumer``).
  var consumer: BindingKey? {
    guard let parent = frame?.parent, parent.depth > 0 else { return nil }
    return parent.step.requested
  }

  /// Runs `body` as one resolution in `container`, in this request's scope and isolation: the
  /// requests `body` makes share their `graph` instances.
  func asOneResolution<R>(
    in container: Container, _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try Self.marked(container, scope: requestScope, callerIsolation: callerIsolation, body)
  }

  /// The context of a request made outside any factory by a caller isolated to `isolation`.
  @inlinable @inline(__always)
  static func topLevel(_ isolation: (any Actor)?) -> ResolutionContext {
    ResolutionContext(
      frame: nil, scope: nil, callerIsolation: isolation.map(ObjectIdentifier.init))
  }

  /// The context of a top-level request made in `scope` by a caller isolated to `isolation`.
  @inlinable @inline(__always)
  static func topLevel(in scope: Scope, _ isolation: (any Actor)? = nil) -> ResolutionContext {
    ResolutionContext(
      frame: nil, scope: _Unretained(scope),
      callerIsolation: isolation.map(ObjectIdentifier.init))
  }

  /// This context, or, for a top-level request, the chain running on this thread, if any.
  @inline(__always)
  func joined() -> ResolutionContext {
    ResolutionContext(
      frame: frame ?? _Frame.running, scope: requestScope,
      callerIsolation: callerIsolation)
  }

  /// The scope scoped bindings are resolved in: the request's, or its chain's; `nil` outside
  /// any scope.
  var scope: Scope? {
    (requestScope ?? frame?.root.state.scope)?.object
  }

  /// Whether the request is made inside a factory (the chain has a frame).
  var isNested: Bool { frame != nil }

  /// Whether a shared instance made now is published only when this resolution ends, after its
  /// `initCompleted` steps ran (one is pending): until then no other thread may see it.
  var holdsPublications: Bool { frame?.root.state.holdsPublications ?? false }

  /// Keeps the creation gate of `home`, where `binding` just made an instance, and the
  /// publication of that instance until this resolution ends (``holdsPublications`` must be
  /// true); see ``_RootState/hold(_:home:object:commit:abandon:)``.
  func holdUntilEnd(
    _ binding: AnyBinding, home: InstanceHome, object: AnyObject? = nil,
    commit: @escaping () -> Void, abandon: @escaping () -> Void
  ) {
    frame?.root.state.hold(
      binding, home: home, object: object, commit: commit, abandon: abandon)
  }

  /// Whether this resolution made the instance of `home` and holds it unpublished.
  ///
  /// Its requests in this resolution are then served that instance; `object` is a held transient
  /// instance's object.
  func heldCreation(of home: InstanceHome) -> (isHeld: Bool, object: AnyObject?) {
    guard let held = frame?.root.state.held(home) else { return (false, nil) }
    return (true, held.object)
  }

  /// The creations this thread's chain is in the middle of, innermost first, and those whose
  /// gates its resolution keeps until it ends (``holdUntilEnd(_:home:object:commit:abandon:)``):
  /// what it blocks while it waits for another creation (``WaitRegistry``).
  ///
  /// Walks the chain: for the slow path of a wait only. Only shared instances (scoped or
  /// container-wide) have gates anyone waits for; ephemeral and graph frames are left out, so
  /// a deep chain of them costs the walk but records nothing.
  var creations: [AnyBinding] {
    var bindings: [AnyBinding] = []
    var current = frame
    // A depth-0 frame only marks where a resolution started.
    while let level = current, level.depth > 0 {
      let binding = level.binding
      if binding.lifetime.reach >= .scope { bindings.append(binding) }
      current = level.parent
    }
    if let frame { bindings += frame.root.state.heldBindings }
    return bindings
  }

  /// The longest-enduring container-wide binding being created in this chain, if any: what
  /// an instance requested now would be kept by.
  ///
  /// Persistent outranks cached, which outranks transient. Nothing is walked unless this
  /// thread is creating a container-wide instance (a cold, once-per-instance path), so
  /// resolves outside such creations pay one thread-local read.
  var captor: AnyBinding? {
    @inline(__always) get {
      guard _ThreadState.isCreatingShared else { return nil }
      return captorDuringSharedCreation
    }
  }

  /// ``captor``, walked: only while this thread creates a container-wide instance.
  @inline(never)
  private var captorDuringSharedCreation: AnyBinding? {
    guard let frame else { return nil }
    var best: AnyBinding?
    var bestEndurance = 0
    var current = Optional(frame)
    while let level = current {
      let binding = level.binding
      let endurance = binding.lifetime.endurance
      if endurance > bestEndurance {
        best = binding
        bestEndurance = endurance
        if binding.lifetime.strategy.isPermanent { break }
      }
      current = level.parent
    }
    return best
  }

  /// How many bindings deep the chain is (0 at the top).
  @usableFromInline var depth: Int { frame?.depth ?? 0 }

  /// The module of the binding whose factory makes the request (or of the async factory a
  /// marker frame stands for), if any.
  var requestingModule: Module? {
    frame?.binding.module
  }

  /// The binding whose factory makes the request, if any (not a main-actor marker).
  var requester: AnyBinding? {
    guard let frame, frame.depth > 0 else { return nil }
    return frame.binding
  }

  /// The steps from the top-level request down to the innermost frame.
  @usableFromInline func steps(appending last: ResolutionStep?) -> [ResolutionStep] {
    _Frame.steps(to: frame, appending: last)
  }

  /// What the innermost frame's request asked for.
  @usableFromInline var requested: BindingKey {
    frame?.step.requested ?? BindingKey(Void.self)
  }

  /// Whether the resolution runs on the main actor: it was marked so or started by a
  /// caller isolated to the main actor, or it runs on the main thread.
  var isOnMainActor: Bool {
    if let root = frame?.root {
      if root.state.isOnMainActor { return true }
      if let caller = root.state.callerIsolation,
        caller == ObjectIdentifier(MainActor.shared)
      {
        return true
      }
    }
    return _ThreadState.isOnMainActor
  }

  /// Throws if `binding` may not be entered below this chain: a cycle, the depth limit or the
  /// end of the stack.
  ///
  /// Nothing to check at the top.
  @inline(__always)
  func check(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, in container: Container
  ) throws(ResolutionError) {
    if let frame {
      try _Frame.check(binding, fallbackTag: fallbackTag, parent: frame, in: container)
    }
  }

  /// Runs `body` in a new frame for `binding` pushed on this chain (joined with the thread's
  /// running chain at the top).
  ///
  /// `graphSlots`: a `graph` binding at the top keeps its first
  /// shared instances on this call's stack.
  @_transparent
  func enter<R>(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, in container: Container,
    graphSlots: Bool = false, _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try _Frame.enter(
      binding, fallbackTag: fallbackTag, parent: frame, in: container, scope: requestScope,
      callerIsolation: callerIsolation, graphSlots: graphSlots
    ) { entered throws(ResolutionError) -> R in
      try body(ResolutionContext(frame: entered.duplicated()))
    }
  }

  /// Calls `maker` for the binding of this context's innermost frame, as the thread's running
  /// chain, with a resolver over this chain and the request's runtime arguments; a failure
  /// becomes a ``ResolutionError`` with the path.
  @inline(__always)
  func make(
    _ maker: Maker, arguments: borrowing _Arguments = .none, into slot: borrowing _InstanceSlot,
    for binding: AnyBinding, in container: Container
  ) throws(ResolutionError) {
    let frame = self.frame!
    #if JOINERY_INTERNAL_CHECKS
      checkContainer(is: container, for: binding)
    #endif
    do {
      try frame.running { () throws in
        try maker(Resolver(frame: _FrameReference(frame)), arguments, slot)
      }
    } catch {
      throw binding.failure(error, frame: self, in: container)
    }
    if binding.completion != nil {
      frame.root.state.enqueueCompletion(
        of: binding, in: container, slot.load(binding.layout))
    }
    // The top-level instance of a resolution whose steps will run: made last, in the caller's
    // memory, which a failing step must not leave initialized.
    if frame.parent == nil && frame.root.state.holdsPublications {
      _ = frame.root.state.completions.read { $0.callerInstance = slot.cleanup(binding.layout) }
    }
  }

  #if JOINERY_INTERNAL_CHECKS
    /// Checks that the innermost frame records `container`.
    ///
    /// The resolver lent to the factory reads the container from the frame. Out of line: its
    /// stack is gone before the factory runs, so a deep chain in a debug build does not keep it
    /// at every level.
    @inline(never)
    func checkContainer(is container: Container, for binding: AnyBinding) {
      _internalCheck(
        frame?.level.container.isIdentical(to: _Unretained(container)) == true,
        "\(binding.key) made in another container than its frame's")
    }
  #endif

  /// Runs `body` for an outermost request in a resolution of its own, marked by a depth-0
  /// frame, when `container` has `initCompleted` steps: the steps then run when that
  /// resolution ends, after the shared instance `body` creates is published and its creation
  /// gate released (so a step may resolve it).
  ///
  /// Any other request runs `body` as it is.
  ///
  /// `out`: the caller's memory `body` initializes with the instance, if it does (a transient or
  /// cached resolve): when a step fails after `body` returned, the resolve throws, so that copy
  /// is destroyed instead of left to a caller that takes the memory for uninitialized.
  @inline(__always)
  static func outermost<R>(
    _ parent: borrowing ResolutionContext, in container: Container,
    initializing out: consuming _InstanceCleanup? = nil,
    _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    guard container.hasCompletions, parent.frame == nil, _Frame.running == nil
    else {
      return try body(parent)
    }
    return try markedDestroyingOnFailure(
      container, scope: parent.requestScope, out: out, body)
  }

  @inline(never)
  private static func markedDestroyingOnFailure<R>(
    _ container: Container, scope: _Unretained<Scope>?,
    out: consuming _InstanceCleanup?,
    _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    var initialized = false
    do {
      return try marked(container, scope: scope) { context throws(ResolutionError) -> R in
        let result = try body(context)
        initialized = true
        return result
      }
    } catch {
      if initialized, let out = out.take() { out.destroy() }
      throw error
    }
  }

  /// Runs `body` with a resolver lent for a resolution of its own, in which no binding is
  /// being built (a depth-0 frame), started by a caller isolated to `isolation`: for code that
  /// fills objects the container did not make.
  static func withResolver<R>(
    in container: Container, isolation: (any Actor)?,
    _ body: (borrowing Resolver) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try marked(
      container, scope: nil, callerIsolation: isolation.map(ObjectIdentifier.init)
    ) { context throws(ResolutionError) -> R in
      let frame = context.frame!
      return try frame.running { () throws(ResolutionError) -> R in
        try body(Resolver(frame: _FrameReference(frame)))
      }
    }
  }

  /// Runs `body` in a new resolution that starts from a depth-0 marker frame: the container's
  /// plain marker, or `marker`, a binding being created above this resolution (an async
  /// factory's), which the captive check then sees.
  @inline(never)
  ///
  /// `callerIsolation`: the isolation of the caller that started it, for main-actor bindings.
  /// `graphSlots`: whether to keep its first `graph` instances on this call's stack.
  static func marked<R>(
    _ container: Container, scope: _Unretained<Scope>?, marker: AnyBinding? = nil,
    callerIsolation: ObjectIdentifier? = nil, graphSlots: Bool = false,
    _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try _RootState.resolution(
      of: container, callerIsolation: callerIsolation, scope: scope, graphSlots: graphSlots
    ) { root throws(ResolutionError) -> R in
      try root.first(
        marker ?? container.mainActorMarker,
        level: _FrameLevel(fallbackTag: nil, container: container), depth: 0
      ) { frame throws(ResolutionError) -> R in
        try body(ResolutionContext(frame: frame.duplicated()))
      }
    }
  }

  /// Copies the instance `binding` already made in this resolution into `slot`; returns
  /// whether there was one.
  @inline(__always)
  func copyGraphInstance(of binding: AnyBinding, into slot: borrowing _InstanceSlot) -> Bool {
    guard let frame else { return false }
    return frame.root.state.copyGraphInstance(of: binding, into: slot)
  }

  /// Keeps a copy of `slot`'s instance, made by `binding`, until the resolution ends; nothing
  /// for the top-level instance, which is never asked for again in its own resolution.
  @inline(__always)
  func storeGraphInstance(copyOf slot: borrowing _InstanceSlot, for binding: AnyBinding) {
    // The top-level instance too when `initCompleted` steps will run (they may ask for it) or a
    // `Lazy` made in this resolution will remember it.
    guard let frame,
      frame.parent != nil || frame.root.state.holdsPublications || frame.root.state.hasMemory
    else { return }
    frame.root.state.storeGraphInstance(copyOf: slot, for: binding)
  }

  /// Runs `body` in a new resolution on the main actor: a depth-0 marker frame says so, and
  /// main-actor factories may run in it.
  static func onMainActor<R>(
    in container: Container,
    _ body: (borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    let marker = container.mainActorMarker
    return try _RootState.resolution(of: container, onMainActor: true) {
      root throws(ResolutionError) -> R in
      try root.first(
        marker, level: _FrameLevel(fallbackTag: nil, container: container), depth: 0
      ) { frame throws(ResolutionError) -> R in
        try body(ResolutionContext(frame: frame.duplicated()))
      }
    }
  }
}

extension ResolutionContext {
  /// The container whose factory runs on the calling thread, and the scope of its resolution,
  /// if any: what an instance made there (an `@Injected` property declared in it) resolves
  /// from later.
  static var running: (container: Container, scope: Scope?)? {
    guard let frame = _Frame.running else { return nil }
    return (frame.level.container.object, frame.root.state.scope?.object)
  }
}
