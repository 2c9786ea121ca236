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

  /// Builds an instance into `out` (uninitialized memory for the bound type) from the arguments
  /// at `arguments`, a tuple of exactly the bound argument types.
  @usableFromInline
  func make(
    arguments: UnsafeRawPointer, into out: UnsafeMutableRawPointer, in container: Container,
    parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try Frame.enter(self, fallbackTag: fallbackTag, parent: parent, in: container) {
      frame throws(ResolutionError) in
      do {
        try _ThreadState.running(frame) { () throws in
          try maker(Resolver(container: container, frame: frame), arguments, out)
        }
      } catch {
        throw failure(error, frame: frame, in: container)
      }
    }
  }
}

/// Builds an instance of the bound type into uninitialized memory (the third argument) from a
/// resolver and a pointer to a tuple of the runtime arguments (the second).
@usableFromInline typealias ArgumentMaker =
  @Sendable (borrowing Resolver, UnsafeRawPointer, UnsafeMutableRawPointer) throws -> Void

/// Calls `factory` with the elements of the tuple at `arguments`, whose type is exactly
/// `(repeat each Argument)`.
@inlinable
func apply<T, each Argument>(
  _ factory: (borrowing Resolver, repeat each Argument) throws -> T, _ resolver: borrowing Resolver,
  _ arguments: UnsafeRawPointer
) throws -> T {
  let values = arguments.load(as: (repeat each Argument).self)
  return try factory(resolver, repeat each values)
}
