/// A binding whose factory takes runtime arguments; a new instance on every resolve.
// Immutable after init: the maker is @Sendable.
@usableFromInline
final class ArgumentBinding: AnyBinding, @unchecked Sendable {
  let maker: ArgumentMaker

  init(
    key: BindingKey, location: BindingLocation, registerType: Any.Type, isOverride: Bool,
    layout: ValueLayout, maker: @escaping ArgumentMaker
  ) {
    self.maker = maker
    super.init(
      key: key, lifetime: .ephemeral, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout)
  }

  override var needsArguments: Bool { true }

  override func fresh() -> AnyBinding {
    let copy = ArgumentBinding(
      key: key, location: location, registerType: registerType, isOverride: isOverride,
      layout: layout, maker: maker)
    return copyDeclaration(to: copy)
  }

  /// Builds an instance into `out` (a slot for the bound type) from `arguments`, a tuple of
  /// exactly the bound argument types.
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
}

/// Calls `factory` with the elements of the tuple `arguments` holds, whose type is exactly
/// `(repeat each Argument)`.
@inlinable
func apply<T, each Argument>(
  _ factory: (borrowing Resolver, repeat each Argument) throws -> T, _ resolver: borrowing Resolver,
  _ arguments: _Arguments
) throws -> T {
  let values = arguments.load(as: (repeat each Argument).self)
  return try factory(resolver, repeat each values)
}
