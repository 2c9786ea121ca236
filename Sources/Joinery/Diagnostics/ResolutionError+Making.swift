/// The constructors the resolution code uses; each records the path from the frames at hand.
extension ResolutionError {
  static func missing(
    _ requested: BindingKey, triedFallback: Bool, parent: UnsafePointer<Frame>?,
    in container: Container
  ) -> ResolutionError {
    let detail: String? =
      if requested.tag == nil {
        nil
      } else if triedFallback {
        "The fallback to the untagged \(requested.typeName) found no binding either."
      } else {
        "The request used `matching: .exact`, so the untagged binding was not tried."
      }
    return ResolutionError(
      .missingBinding, requested: requested,
      path: Frame.steps(to: parent) + [ResolutionStep(requested: requested, binding: nil)],
      detail: detail, container: container)
  }

  static func argumentMismatch(
    _ requested: BindingKey, parent: UnsafePointer<Frame>?, in container: Container
  ) -> ResolutionError {
    ResolutionError(
      .argumentMismatch, requested: requested,
      path: Frame.steps(to: parent) + [ResolutionStep(requested: requested, binding: nil)],
      container: container)
  }

  static func cycle(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>,
    in container: Container
  ) -> ResolutionError {
    let step = ResolutionStep(requested: requestedKey(binding, fallbackTag), binding: binding.info)
    return ResolutionError(
      .cycle, requested: step.requested, path: Frame.steps(to: parent) + [step],
      binding: binding.info, container: container)
  }

  static func reentrantCreation(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>?,
    in container: Container
  ) -> ResolutionError {
    let step = ResolutionStep(requested: requestedKey(binding, fallbackTag), binding: binding.info)
    return ResolutionError(
      .cycle, requested: step.requested, path: Frame.steps(to: parent) + [step],
      binding: binding.info,
      detail: """
        This thread is already creating \(binding.info.key): its factory (or one it called) \
        resolved it again through the container instead of through its resolver.
        """,
      container: container)
  }

  static func crossThreadCycle(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>?,
    waitingChain: [BindingKey], in container: Container
  ) -> ResolutionError {
    let step = ResolutionStep(requested: requestedKey(binding, fallbackTag), binding: binding.info)
    let chain = waitingChain.map(\.description).joined(separator: " → ")
    return ResolutionError(
      .cycle, requested: step.requested, path: Frame.steps(to: parent) + [step],
      binding: binding.info,
      detail: """
        Waiting for \(binding.info.key) would deadlock: threads building shared instances wait \
        for each other in a ring (\(chain)). Each would wait forever, so this one stops instead.
        """,
      container: container)
  }

  static func depthLimit(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>,
    stackExhausted: Bool, in container: Container
  ) -> ResolutionError {
    let step = ResolutionStep(requested: requestedKey(binding, fallbackTag), binding: binding.info)
    let depth = parent.pointee.depth + 1
    return ResolutionError(
      .depthLimitExceeded, requested: step.requested, path: Frame.steps(to: parent) + [step],
      binding: binding.info,
      detail: stackExhausted
        ? "At depth \(depth) the resolving thread's stack is nearly exhausted; going on would crash."
        : "The chain is more than \(container.maximumDepth) bindings deep.",
      container: container)
  }

  static func factoryFailed(
    _ binding: AnyBinding, frame: UnsafePointer<Frame>, error: any Error, in container: Container
  ) -> ResolutionError {
    let step = frame.pointee.step
    return ResolutionError(
      .factoryFailed, requested: step.requested, path: Frame.steps(to: frame),
      binding: binding.info, underlyingError: error, container: container)
  }

  static func transientValueType(
    _ binding: AnyBinding, frame: UnsafePointer<Frame>, instanceType: Any.Type,
    in container: Container
  ) -> ResolutionError {
    let step = frame.pointee.step
    return ResolutionError(
      .transientValueType, requested: step.requested, path: Frame.steps(to: frame),
      binding: binding.info,
      detail: "The factory returned a \(TypeName.of(instanceType)), which is a value type.",
      container: container)
  }

  static func forwardingMismatch(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>?,
    instanceType: Any.Type, in container: Container
  ) -> ResolutionError {
    let step = ResolutionStep(requested: requestedKey(binding, fallbackTag), binding: binding.info)
    return ResolutionError(
      .forwardingTypeMismatch, requested: step.requested, path: Frame.steps(to: parent) + [step],
      binding: binding.info,
      detail: """
        The target made a \(TypeName.of(instanceType)), which is not a \
        \(binding.info.key.typeName).
        """,
      container: container)
  }

  static func containerReleased(_ key: BindingKey) -> ResolutionError {
    ResolutionError(
      .containerReleased, requested: key, path: [ResolutionStep(requested: key, binding: nil)],
      detail: "The Provider or Lazy holds its container weakly, and the container is gone.",
      container: nil)
  }

  static func noCurrentContainer(_ key: BindingKey, location: BindingLocation) -> ResolutionError {
    ResolutionError(
      .noCurrentContainer, requested: key, path: [ResolutionStep(requested: key, binding: nil)],
      detail: "The @Injected property declared at \(location) names no container, and "
        + "none is current: it was read outside `container.withCurrent { … }`.",
      container: nil)
  }

  static func mainActorRequired(
    _ binding: AnyBinding, frame: UnsafePointer<Frame>, key: BindingKey, in container: Container
  ) -> ResolutionError {
    let step = frame.pointee.step
    return ResolutionError(
      .mainActorRequired, requested: step.requested, path: Frame.steps(to: frame),
      binding: binding.info,
      detail: "Its factory is isolated to the main actor, and this resolve runs on another thread.",
      container: container)
  }

  static func asyncBinding(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>?,
    in container: Container
  ) -> ResolutionError {
    let step = ResolutionStep(requested: requestedKey(binding, fallbackTag), binding: binding.info)
    return ResolutionError(
      .asyncBinding, requested: step.requested, path: Frame.steps(to: parent) + [step],
      binding: binding.info, detail: "Its factory is async.", container: container)
  }

  static func notCached(_ binding: AnyBinding, in container: Container) -> ResolutionError {
    ResolutionError(
      .notCached, requested: binding.info.key,
      path: [ResolutionStep(requested: binding.info.key, binding: binding.info)],
      binding: binding.info,
      detail: "Its lifetime is \(binding.info.lifetime).", container: container)
  }

  private static func requestedKey(_ binding: AnyBinding, _ fallbackTag: RequestedTag?)
    -> BindingKey
  {
    let key = binding.info.key
    guard let fallbackTag else { return key }
    return BindingKey(key.type, tag: fallbackTag.tag, argumentTypes: key.argumentTypes)
  }
}
