public import JoineryEngine

/// The chain of asynchronous requests, for error paths, cycle detection and the depth limit.
///
/// Unlike synchronous frames it lives on the heap, because it must survive suspensions. While a
/// binding's factory runs, its node is the task's ``current`` one, so a request the factory
/// makes through a captured container (or from a child task) joins the chain, as a synchronous
/// request made inside a factory joins that factory's frames.
// The atomic words are touched only through `_AtomicWordsHolder`; everything else is `let`.
@usableFromInline
final class AsyncPath: _AtomicWordsHolder, @unchecked Sendable {
  /// Word 0: 1 once the binding's factory has returned.
  ///
  /// A task the factory left behind is then not part of the chain. Word 1, on the first node:
  /// the resolution's graph memory (``graph``), made on first use.
  private final var finishedWord: UInt = 0
  private final var graphWord: UInt = 0
  let binding: AnyBinding
  let parent: AsyncPath?
  /// The binding's level in the chain: its address, depth and the cycle test's state, as a
  /// synchronous frame keeps it (``_ChainLink``).
  @usableFromInline let link: _ChainLink
  @inlinable
  var depth: Int { link.depth }
  /// The first node of the chain; `nil` on the first node itself.
  private let first: AsyncPath?
  /// The ``Scope`` the top-level request was made in, where `scoped` bindings have their
  /// instances; `nil` outside any scope.
  @usableFromInline let requestScope: Scope?
  /// The container whose factory this node runs, kept only where it is not the first node's
  /// (the first node's own, a request to another container's): a node of the same container
  /// costs no reference counting for it.
  private let ownContainer: Container?
  /// Where the path's captor is (see ``captor``).
  ///
  /// The depth of its node (0 when there is none) and its lifetime's endurance: numbers, not a
  /// reference, so that a node costs no extra reference counting.
  private let captorDepth: Int
  private let captorEndurance: Int
  /// The node of the factory running in this task, if any.
  @TaskLocal static var current: AsyncPath?

  /// Whether a container-wide binding is being created on this path.
  var hasCaptor: Bool { captorDepth > 0 }

  /// The longest-enduring container-wide binding on the path, innermost among equals: what an
  /// instance requested below it would be kept by (``ResolutionContext/captor``'s rule).
  ///
  /// Walks up to it: asked only when ``hasCaptor``.
  var captor: AnyBinding? {
    var node: AsyncPath? = self
    while let current = node {
      if current.depth == captorDepth { return current.binding }
      node = current.parent
    }
    return nil
  }

  /// The container whose factory this node runs: what an instance made in it remembers (an
  /// `@Injected` property declared in it).
  ///
  /// A node keeps none only when it is the first node's; the first node keeps its own.
  var container: Container? { ownContainer ?? first?.ownContainer }

  /// The node of the running factory a request made without one joins.
  @usableFromInline
  static func joining(_ path: AsyncPath?) -> AsyncPath? {
    if let path { return path }
    guard let current, current._loadAcquiring(0) == 0 else { return nil }
    return current
  }

  private init(
    binding: AnyBinding, parent: AsyncPath?, requestScope: Scope?, container: Container,
    isMarker: Bool = false
  ) {
    self.binding = binding
    self.parent = parent
    let owner = _Frame.owner(binding)
    if isMarker {
      link = _ChainLink(first: owner, depth: 0)
    } else if let parent {
      link = _ChainLink(owner, below: parent.link)
    } else {
      link = _ChainLink(first: owner)
    }
    let depth = link.depth
    first = parent.map { $0.first ?? $0 }
    ownContainer = first?.ownContainer === container ? nil : container
    self.requestScope = requestScope ?? parent?.requestScope
    let endurance = isMarker ? 0 : binding.lifetime.endurance
    if endurance > 0, endurance >= parent?.captorEndurance ?? 0 {
      (captorDepth, captorEndurance) = (depth, endurance)
    } else {
      (captorDepth, captorEndurance) = (parent?.captorDepth ?? 0, parent?.captorEndurance ?? 0)
    }
    _checkAtomicWordsLayout(&finishedWord)
  }

  deinit {
    // The top-level request has ended: its graph is let go (a `Lazy` made in it keeps only a
    // weak memory of it).
    if first == nil, let graph = _existingLazyObject(1, as: _GraphMemory.self) {
      graph.endHolding()
      _releaseLazyObject(1, as: _GraphMemory.self)
    }
  }

  /// The `graph` instances of the top-level `resolveAsync` this path belongs to, made on first
  /// use (most resolutions have none).
  var graph: _GraphMemory {
    (first ?? self)._lazyObject(1) { _GraphMemory(holding: true) }
  }

  /// The first node of a top-level request that resolves several bindings as one resolution.
  ///
  /// A `resolveAllAsync`'s contributions share its `graph` instances. A depth-0 marker, not
  /// part of any path a diagnostic shows, nor of a cycle or a wait.
  static func marker(in container: Container, requestScope: Scope?) -> AsyncPath {
    AsyncPath(
      binding: container.mainActorMarker, parent: nil, requestScope: requestScope,
      container: container, isMarker: true)
  }

  /// A node for `binding` below `parent`, in `requestScope` when the request was made in one
  /// (else in the parent's); refused when `binding` is already being made on the path (a
  /// cycle) or past the container's depth limit.
  ///
  /// The test is the one synchronous frames make
  /// (``_ChainLink/admit(_:maximumDepth:stackLimit:contains:)``): constant work per level, so
  /// a chain of any depth costs the same per level. A deep cycle the test has not met yet
  /// ends at the depth limit, reported as a cycle, or, through a shared binding, as a wait
  /// that would close a ring (``AnyBinding/awaitCreation(_:node:path:in:)``).
  static func enter(
    _ binding: AnyBinding, below parent: AsyncPath?, requestScope: Scope? = nil,
    in container: Container
  ) throws(ResolutionError) -> AsyncPath {
    if let parent {
      let verdict = parent.link.admit(
        _Frame.owner(binding), maximumDepth: container.maximumDepth
      ) { owner in
        _ChainLink.chain(from: parent, contains: owner, link: { $0.link }, parent: { $0.parent })
      }
      switch verdict {
      case .clear: break
      case .cycle: throw .cycle(binding, fallbackTag: nil, parent: parent, in: container)
      case .tooDeep:
        throw .depthLimit(
          binding, fallbackTag: nil, parent: parent, stackExhausted: false, in: container)
      }
    }
    return AsyncPath(
      binding: binding, parent: parent, requestScope: requestScope, container: container)
  }

  /// Runs `body` (the binding's factory) as the task's current node.
  @inline(__always)
  func running<R>(_ body: () async throws -> R) async throws -> R {
    defer { _storeReleasing(0, 1) }
    return try await Self.$current.withValue(self) { try await body() }
  }

  @usableFromInline func steps(appending last: ResolutionStep?) -> [ResolutionStep] {
    var steps: [ResolutionStep] = []
    steps.reserveCapacity(depth + (last == nil ? 0 : 1))
    var current: AsyncPath? = self
    while let node = current, node.depth > 0 {
      steps.append(ResolutionStep(requested: node.binding.key, binding: node.binding.info))
      current = node.parent
    }
    steps.reverse()
    if let last { steps.append(last) }
    return steps
  }

  /// The bindings on the path, innermost first.
  var bindings: [AnyBinding] {
    var found: [AnyBinding] = []
    var current: AsyncPath? = self
    while let node = current, node.depth > 0 {
      found.append(node.binding)
      current = node.parent
    }
    return found
  }

  func contains(_ binding: AnyBinding) -> Bool {
    let owner = _Frame.owner(binding)
    guard link.mayContain(owner) else { return false }
    return _ChainLink.chain(from: self, contains: owner, link: { $0.link }, parent: { $0.parent })
  }
}
