import Synchronization

/// Provides `T` by converting the instance of another binding (type forwarding): one
/// implementation bound to several interfaces, sharing its lifetime and instance.
// `target` is set once before the container is shared; `converted` is published by `isReady`.
final class ForwardingBinding<T>: Binding<T>, @unchecked Sendable {
  let targetKey: BindingKey
  /// Set once by `link(in:)`; the container owns the target.
  private(set) unowned(unsafe) var target: AnyBinding!
  /// For a persistent target the converted instance is kept, so later resolves skip the cast.
  private let isReady = Atomic<Bool>(false)
  private let gate = Lock.make()
  @exclusivity(unchecked) private var converted: T?

  init(
    key: BindingKey, targetKey: BindingKey, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool
  ) {
    self.targetKey = targetKey
    super.init(
      key: key, lifetime: .ephemeral, location: location, registerType: registerType,
      isOverride: isOverride)
  }

  override var forwardTargetKey: BindingKey? { targetKey }

  override var info: BindingInfo {
    BindingInfo(
      key: key, lifetime: target?.lifetime ?? lifetime, location: location,
      registerType: registerType, isOverride: isOverride, forwardedTo: targetKey)
  }

  override func link(in container: Container) {
    target = container.table.binding(for: targetKey)
  }

  override func resolve(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    if isReady.load(ordering: .acquiring) { return converted.unsafelyUnwrapped }
    let made = try target.resolveAny(in: container, parent: parent, fallbackTag: nil)
    guard let value = made as? T else {
      throw .forwardingMismatch(
        self, fallbackTag: fallbackTag, parent: parent, instanceType: type(of: made),
        in: container)
    }
    if target.lifetime.kind == .persistent {
      gate.withLock {
        if !isReady.load(ordering: .relaxed) {
          converted = value
          isReady.store(true, ordering: .releasing)
        }
      }
    }
    return value
  }
}
