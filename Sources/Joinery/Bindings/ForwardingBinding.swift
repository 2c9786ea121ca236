internal import JoineryEngine

/// Provides `T` by converting the instance of another binding (type forwarding): one
/// implementation bound to several interfaces, sharing its lifetime and instance.
// `target` is set once before the container is shared; `storage` is published by `isReady`.
final class ForwardingBinding: AnyBinding, @unchecked Sendable {
  /// Resolves `target` and writes the converted instance into the memory given; returns the
  /// instance's dynamic type when it does not convert.
  ///
  /// A protocol, not a stored closure: the reflection metadata of a stored
  /// `throws(ResolutionError)` function type needs a Swift 6 runtime entry point that OSes
  /// below macOS 15 and iOS 18 lack (`Mirror`, `dump` and the debugger read it).
  protocol Converter: Sendable {
    func convert(
      _ target: AnyBinding, in container: Container, parent: borrowing ResolutionContext,
      into out: borrowing _InstanceSlot
    ) throws(ResolutionError) -> Any.Type?
  }

  let targetKey: BindingKey
  let converter: any Converter
  /// Set once by `link(in:)`, before the container is shared.
  private(set) var target: AnyBinding?
  /// The ancestor that declared `target`, when it is not this binding's own container (which
  /// is not referenced here: it owns this binding).
  ///
  /// Set with `target`.
  private(set) var ancestor: Container?
  private let gate = _Lock.make()

  init(
    key: BindingKey, targetKey: BindingKey, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, layout: _ValueLayout, converter: any Converter
  ) {
    self.targetKey = targetKey
    self.converter = converter
    super.init(
      key: key, lifetime: .ephemeral, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout)
  }

  override func fresh() -> AnyBinding { ForwardingBinding(copying: self) }

  private init(copying other: ForwardingBinding) {
    targetKey = other.targetKey
    converter = other.converter
    super.init(copying: other)
  }

  override var forwardTargetKey: BindingKey? { targetKey }

  override var info: BindingInfo {
    BindingInfo(
      key: key, lifetime: target?.lifetime ?? lifetime, location: location,
      registerType: registerType, isOverride: isOverride, forwardedTo: targetKey,
      metadata: metadata, contribution: contributionIndex, isChecked: true,
      assembly: module?.type, isPrivate: isPrivate)
  }

  override func link(in container: Container) {
    // The target may be an ancestor's (a child forwarding to its parent's binding); it is then
    // resolved in the container that declared it, as every binding is.
    let owner = container.owner(of: targetKey)
    target =
      owner?.table.binding(for: targetKey)
      ?? container.privateBindings[targetKey]?.first { $0.module === module }
    ancestor = owner == nil || owner === container ? nil : owner
  }

  override func resolve(
    into out: borrowing _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if isReady {
      out.initialize(copying: storage)
      return
    }
    // Linked at build: `build()` refuses a forward whose target is not bound.
    let target = target!
    let owner = ancestor ?? container
    if let instanceType = try converter.convert(target, in: owner, parent: parent, into: out) {
      throw .forwardingMismatch(
        self, fallbackTag: fallbackTag, parent: parent, instanceType: instanceType,
        in: container)
    }
    // A persistent target's instance never changes: keep the converted one, once the target
    // is published (not while its resolution still holds it for its `initCompleted` steps).
    if target.lifetime.strategy.isPermanent, target.isReady {
      gate.withLock {
        if !isReady {
          allocateStorage()
          out.copy(into: storage)
          publishReady()
        }
      }
    }
  }

  /// The converter from `Target` to `T`, checked when the first instance is made.
  struct Conversion<T, Target>: Converter {
    func convert(
      _ target: AnyBinding, in container: Container, parent: borrowing ResolutionContext,
      into out: borrowing _InstanceSlot
    ) throws(ResolutionError) -> Any.Type? {
      // The edge to the target is the forward's own, not the requester's.
      let value: Target = try container.instance(
        of: target, as: Target.self, parent: parent, fallbackTag: nil, recordsEdge: false)
      guard let converted = value as? T else { return type(of: value as Any) }
      out.initialize(to: converted)
      return nil
    }
  }
}
