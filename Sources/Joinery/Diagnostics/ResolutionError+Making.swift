/// Where in a resolution a failure happened: the chain of bindings above it, which the
/// synchronous engine keeps in frames (``ResolutionContext``) and the async one in ``AsyncPath``
/// nodes (`nil` at the top).
///
/// Every constructor below takes one, so a failure is reported alike — same code, message and
/// path shape — whichever engine met it.
@usableFromInline
protocol ResolutionSite: ~Copyable {
  /// The steps from the top-level request down to this site, inclusive, then `last` if given:
  /// one array, allocated once.
  func steps(appending last: ResolutionStep?) -> [ResolutionStep]
  /// How many bindings deep the site is (0 at the top).
  var depth: Int { get }
  /// Inside a binding's factory: the key that was requested for it.
  var requested: BindingKey { get }
}

extension ResolutionSite where Self: ~Copyable {
  /// The steps from the top-level request down to this site, inclusive.
  var steps: [ResolutionStep] { steps(appending: nil) }
}

extension ResolutionContext: ResolutionSite {}

extension ResolutionSite where Self == ResolutionContext {
  /// No chain: a request made from outside any resolution.
  static var topLevel: ResolutionContext { ResolutionContext.topLevel }
}

extension AsyncPath: ResolutionSite {
  @usableFromInline var requested: BindingKey { binding.key }
}

extension Optional: ResolutionSite where Wrapped == AsyncPath {
  @usableFromInline func steps(appending last: ResolutionStep?) -> [ResolutionStep] {
    if let self { return self.steps(appending: last) }
    return last.map { [$0] } ?? []
  }
  @usableFromInline var depth: Int { self?.depth ?? 0 }
  @usableFromInline var requested: BindingKey { self?.requested ?? BindingKey(Void.self) }
}

/// The constructors both engines use; each records the path from the site at hand.
extension ResolutionError {
  // MARK: Requests no binding serves

  @inline(never)
  static func missing(
    _ requested: BindingKey, triedFallback: Bool, parent: borrowing some ResolutionSite & ~Copyable,
    in container: Container
  ) -> ResolutionError {
    let detail: String? =
      if requested.tag == nil {
        nil
      } else if triedFallback {
        "The fallback to the untagged \(requested.shortName) found no binding either."
      } else {
        "The request used `matching: .exact`, so the untagged binding was not tried."
      }
    return unserved(.missingBinding, requested, parent: parent, detail: detail, in: container)
  }

  /// A request for a binding another assembly keeps private (`private: true`), by `requester`
  /// (`nil` outside any binding's factory): to it, the key is not bound.
  @inline(never)
  static func privateBinding(
    _ requested: BindingKey, keptBy owner: AnyBinding, requester: AnyBinding?,
    parent: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) -> ResolutionError {
    let module = owner.module?.name ?? "its assembly"
    let who =
      requester.map { binding in
        "\(binding.module.map { "\($0.name)'s " } ?? "")\(binding.key) (\(binding.location))"
      } ?? "a request from outside \(module)"
    return unserved(
      .missingBinding, requested, parent: parent,
      detail: """
        \(requested.shortName) is private to \(module) (bound at \(owner.location)): \(who) \
        cannot resolve it. Resolve what \(module) exports (a protocol it binds without \
        `private: true`), or drop `private: true` from that binding.
        """,
      in: container)
  }

  @inline(never)
  static func argumentMismatch(
    _ requested: BindingKey, parent: borrowing some ResolutionSite & ~Copyable,
    in container: Container
  ) -> ResolutionError {
    unserved(.argumentMismatch, requested, parent: parent, in: container)
  }

  @inline(never)
  static func containerReleased(_ key: BindingKey) -> ResolutionError {
    unserved(.shutDown, key, parent: .topLevel, detail: releasedContainerDetail, in: nil)
  }

  @inline(never)
  static func noCurrentContainer(_ key: BindingKey, location: BindingLocation) -> ResolutionError {
    unserved(
      .noCurrentContainer, key, parent: .topLevel,
      detail: "The @Injected property declared at \(location) names no container; the "
        + "object declaring it was made outside any resolution and any "
        + "`container.withCurrent { … }`, and it was read outside one too.",
      in: nil)
  }

  // MARK: A binding that cannot be entered

  @inline(never)
  static func cycle(
    _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable,
    in container: Container
  ) -> ResolutionError {
    entering(.cycle, binding, fallbackTag: fallbackTag, parent: parent, in: container)
  }

  @inline(never)
  static func reentrantCreation(
    _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable,
    in container: Container
  ) -> ResolutionError {
    entering(
      .cycle, binding, fallbackTag: fallbackTag, parent: parent,
      detail: """
        This thread is already creating \(binding.key): its factory (or one it called) \
        resolved it again through the container instead of through its resolver.
        """,
      in: container)
  }

  /// A wait for `binding`'s creation that closes a ring of creations waiting for each other
  /// in other threads or tasks: it would never end.
  @inline(never)
  static func waitRing(
    _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable,
    waitingChain: [BindingKey], in container: Container
  ) -> ResolutionError {
    let chain = waitingChain.map(\.description).joined(separator: " → ")
    return entering(
      .cycle, binding, fallbackTag: fallbackTag, parent: parent,
      detail: """
        Waiting for \(binding.key) would never end: creations of shared instances in \
        different threads or tasks wait for each other in a ring (\(chain)). Each would wait \
        forever, so this one stops instead.
        """,
      in: container)
  }

  @inline(never)
  static func depthLimit(
    _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable,
    stackExhausted: Bool, in container: Container
  ) -> ResolutionError {
    let depth = parent.depth + 1
    return entering(
      .depthLimitExceeded, binding, fallbackTag: fallbackTag, parent: parent,
      detail: stackExhausted
        ? "At depth \(depth) the resolving thread's stack is nearly exhausted; going on would crash."
        : "The chain is more than \(container.maximumDepth) bindings deep.",
      in: container)
  }

  @inline(never)
  static func forwardingMismatch(
    _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable,
    instanceType: Any.Type, in container: Container
  ) -> ResolutionError {
    entering(
      .forwardingTypeMismatch, binding, fallbackTag: fallbackTag, parent: parent,
      detail: """
        The target made a \(TypeName.of(instanceType)), which is not a \
        \(binding.key.shortName).
        """,
      in: container)
  }

  @usableFromInline @inline(never)
  static func asyncBinding(
    _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable,
    in container: Container
  ) -> ResolutionError {
    entering(
      .asyncBinding, binding, fallbackTag: fallbackTag, parent: parent,
      detail: "Its factory is async.", in: container)
  }

  @inline(never)
  static func notCached(_ binding: AnyBinding, in container: Container) -> ResolutionError {
    entering(
      .notCached, binding, fallbackTag: nil, parent: .topLevel,
      detail: "Its lifetime is \(binding.info.lifetime).", in: container)
  }

  @inline(never)
  static func scopeRequired(
    _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable,
    in container: Container
  ) -> ResolutionError {
    entering(
      .scopeRequired, binding, fallbackTag: fallbackTag, parent: parent,
      detail: "Its lifetime is scoped: one instance per scope, and this request was made in none.",
      in: container)
  }

  /// A shorter-lived instance requested while `captor`, which would keep it, is being created.
  @inline(never)
  static func captive(
    _ binding: AnyBinding, by captor: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) -> ResolutionError {
    entering(
      .captiveDependency, binding, fallbackTag: fallbackTag, parent: parent,
      detail: """
        It is \(binding.lifetime) (bound at \(binding.location)), and \(captor.key), which is \
        \(captor.lifetime) (bound at \(captor.location)), was being created: it would keep \
        \(binding.lifetime.reach == .scope ? "one scope's instance for every scope" : "the instance beyond its lifetime").
        """,
      in: container)
  }

  /// A request to a container that was shut down, or to a scope that was closed.
  @usableFromInline @inline(never)
  static func shutDown(
    _ requested: BindingKey, scopeClosed: Bool, parent: borrowing some ResolutionSite & ~Copyable,
    in container: Container
  ) -> ResolutionError {
    unserved(
      .shutDown, requested, parent: parent,
      detail: scopeClosed
        ? "The scope was closed: its instances were disposed."
        : "The container was shut down: its instances were disposed.",
      in: container)
  }

  /// A creation that ended after its container or scope closed: the closer disposed of the
  /// instance, and the request that made it does not get it.
  @inline(never)
  static func closedMeanwhile(
    _ binding: AnyBinding, scopeClosed: Bool,
    parent: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) -> ResolutionError {
    entering(
      .shutDown, binding, fallbackTag: nil, parent: parent,
      detail: scopeClosed
        ? "The scope was closed while its instance was being made: the scope disposed it."
        : "The container was shut down while its instance was being made: shutdown disposed it.",
      in: container)
  }

  @inline(never)
  static func completionsNeverEnd(
    _ binding: AnyBinding, frame: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) -> ResolutionError {
    inside(
      .depthLimitExceeded, binding, frame: frame,
      detail: """
        Its initCompleted step ran after \(container.maximumDepth) others in one resolution: \
        the steps keep making new instances with steps of their own (a back-reference through \
        ephemeral bindings never closes). Make the bindings on the back-reference graph or \
        persistent.
        """, in: container)
  }

  @inline(never)
  static func scopeValueMissing(
    _ binding: AnyBinding, frame: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) -> ResolutionError {
    inside(
      .scopeValueMissing, binding, frame: frame,
      detail: "Each scope provides it, and this scope was made without it.", in: container)
  }

  /// An error other than a `ResolutionError` where only one can arrive: after a standard
  /// library call that rethrows a typed error untyped (the engine's typed `_Unretained.with`,
  /// through `_TypedFailure`).
  ///
  /// Never reached; if it were, it is reported as a factory's failure rather than a trap.
  @usableFromInline @inline(never)
  static func unexpected() -> ResolutionError {
    ResolutionError(
      .factoryFailed, requested: BindingKey(Never.self), path: [],
      detail: "An error that is not a ResolutionError crossed the resolve path.", container: nil)
  }

  // MARK: A factory that failed inside its frame

  @inline(never)
  static func factoryFailed(
    _ binding: AnyBinding, frame: borrowing some ResolutionSite & ~Copyable, error: any Error,
    in container: Container
  ) -> ResolutionError {
    inside(.factoryFailed, binding, frame: frame, underlyingError: error, in: container)
  }

  /// The error of an `initCompleted` step that threw: the factory had returned, and the
  /// instance was discarded.
  @inline(never)
  static func completionFailed(
    _ binding: AnyBinding, frame: borrowing some ResolutionSite & ~Copyable, error: any Error,
    in container: Container
  ) -> ResolutionError {
    inside(
      .factoryFailed, binding, frame: frame, detail: completionStepDetail,
      underlyingError: error, in: container)
  }

  /// The error of a request cancelled while it awaited a creation another request makes: that
  /// creation goes on.
  @inline(never)
  static func cancelledWait(
    _ binding: AnyBinding, frame: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) -> ResolutionError {
    inside(
      .factoryFailed, binding, frame: frame, detail: cancelledWaitDetail,
      underlyingError: CancellationError(), in: container)
  }

  /// The detail that tells a cancelled wait from a failed factory.
  static let cancelledWaitDetail =
    "The request was cancelled while it awaited the instance another request is making; that "
    + "creation goes on, and the next request gets its instance."

  /// The detail that tells a failed `initCompleted` step from a failed factory.
  static let releasedContainerDetail =
    "The Provider, Lazy, ScopeFactory, ContainerReference or @Injected property holds its "
    + "container (or scope) weakly, and it is gone."

  static let completionStepDetail =
    "Its factory returned; then an initCompleted step declared for it threw, so the instance "
    + "was discarded."

  @inline(never)
  static func transientValueType(
    _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable, instanceType: Any.Type,
    in container: Container
  ) -> ResolutionError {
    entering(
      .transientValueType, binding, fallbackTag: fallbackTag, parent: parent,
      detail: "The factory returned a \(TypeName.of(instanceType)), which is a value type.",
      in: container)
  }

  /// A forward with runtime arguments whose target made an instance of another type.
  @inline(never)
  static func forwardingMismatch(
    _ binding: AnyBinding, frame: borrowing some ResolutionSite & ~Copyable,
    instanceType: Any.Type, in container: Container
  ) -> ResolutionError {
    inside(
      .forwardingTypeMismatch, binding, frame: frame,
      detail: """
        The target made a \(TypeName.of(instanceType)), which is not a \
        \(binding.key.shortName).
        """,
      in: container)
  }

  @inline(never)
  static func mainActorRequired(
    _ binding: AnyBinding, frame: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) -> ResolutionError {
    inside(
      .mainActorRequired, binding, frame: frame,
      detail: "Its factory is isolated to the main actor, and this resolve runs on another thread.",
      in: container)
  }

  // MARK: Shapes

  /// A request that no binding serves: the path ends with the request itself.
  @inline(never)
  private static func unserved(
    _ code: Code, _ requested: BindingKey, parent: borrowing some ResolutionSite & ~Copyable,
    detail: String? = nil,
    in container: Container?
  ) -> ResolutionError {
    ResolutionError(
      code, requested: requested,
      path: parent.steps(appending: ResolutionStep(requested: requested, binding: nil)),
      detail: detail, container: container)
  }

  /// A binding that fails before its frame is entered: the path ends with the binding.
  @inline(never)
  private static func entering(
    _ code: Code, _ binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable, detail: String? = nil,
    in container: Container
  ) -> ResolutionError {
    var requested = binding.info.key
    if let fallbackTag {
      requested = BindingKey(
        requested.type, tag: fallbackTag.tag, argumentTypes: requested.argumentTypes)
    }
    let step = ResolutionStep(requested: requested, binding: binding.info)
    return ResolutionError(
      code, requested: requested, path: parent.steps(appending: step),
      binding: binding.info, detail: detail, container: container)
  }

  /// A binding whose factory failed inside its own frame.
  @inline(never)
  private static func inside(
    _ code: Code, _ binding: AnyBinding, frame: borrowing some ResolutionSite & ~Copyable,
    detail: String? = nil, underlyingError: (any Error)? = nil, in container: Container
  ) -> ResolutionError {
    ResolutionError(
      code, requested: frame.requested, path: frame.steps,
      binding: binding.info, underlyingError: underlyingError, detail: detail,
      container: container)
  }
}
