internal import JoineryEngine

/// What a forward (type forwarding: one implementation bound to several interfaces, sharing its
/// lifetime and instance) converts from: its target's key, the conversion, and, once linked,
/// the target binding.
///
/// Kept with the binding's extras, which a throwaway copy of the binding shares until it links:
/// linking writes the copy's own extras, with a copy of this (``copy()``).
final class Forward {
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
  /// The binding of `targetKey`, set by `link`, before the container is shared.
  private(set) var target: AnyBinding?
  /// The ancestor that declared `target`, when it is not the forward's own container (which is
  /// not referenced here: it owns the forward).
  ///
  /// Set with `target`.
  private(set) var ancestor: Container?

  init(targetKey: BindingKey, converter: any Converter) {
    self.targetKey = targetKey
    self.converter = converter
  }

  /// A copy that later links do not share.
  func copy() -> Forward {
    let copy = Forward(targetKey: targetKey, converter: converter)
    copy.target = target
    copy.ancestor = ancestor
    return copy
  }

  /// Finds the target of `binding`, this forward, for `container`.
  func link(_ binding: AnyBinding, in container: Container) {
    // The target may be an ancestor's (a child forwarding to its parent's binding); it is then
    // resolved in the container that declared it, as every binding is.
    let owner = container.owner(of: targetKey)
    target =
      owner?.table.binding(for: targetKey)
      ?? container.privateBindings[targetKey]?.first { $0.module === binding.module }
    ancestor = owner == nil || owner === container ? nil : owner
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

/// What a synchronous request of a forward runs (``AnyBinding/resolveKind``): the target's
/// instance, converted; kept once the target's is permanent.
///
/// Not a lifetime: a forward has its target's, which ``AnyBinding/info`` reports.
final class Forwarding: RequestKind {
  override class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if binding.isReady {
      out.initialize(copying: binding.storage)
      return
    }
    // Linked at build: `build()` refuses a forward whose target is not bound.
    let forward = binding.forward!
    let target = forward.target!
    let owner = forward.ancestor ?? container
    if let instanceType = try forward.converter.convert(
      target, in: owner, parent: parent, into: out)
    {
      throw .forwardingMismatch(
        binding, fallbackTag: fallbackTag, parent: parent, instanceType: instanceType,
        in: container)
    }
    // A persistent target's instance never changes: keep the converted one, once the target
    // is published (not while its resolution still holds it for its `initCompleted` steps).
    if target.lifetime.strategy.isPermanent, target.isReady {
      _ = binding.ifCreationLockAvailable {
        if !binding.isReady {
          binding.allocateStorage()
          out.copy(into: binding.storage)
          binding.publishReady()
        }
      }
    }
  }
}
