/// A binding whose factory takes runtime arguments; a new instance on every resolve.
// Immutable after init: the factory is @Sendable.
@usableFromInline
final class ArgumentBinding<T, each Argument>: AnyBinding, @unchecked Sendable {
  let factory: @Sendable (borrowing Resolver, repeat each Argument) throws -> T

  init(
    key: BindingKey, location: BindingLocation, registerType: Any.Type, isOverride: Bool,
    factory: @escaping @Sendable (borrowing Resolver, repeat each Argument) throws -> T
  ) {
    self.factory = factory
    super.init(
      key: key, lifetime: .ephemeral, location: location, registerType: registerType,
      isOverride: isOverride, layout: ValueLayout(of: T.self))
  }

  override var needsArguments: Bool { true }

  override func fresh() -> AnyBinding {
    let copy = ArgumentBinding(
      key: key, location: location, registerType: registerType, isOverride: isOverride,
      factory: factory)
    return copyDeclaration(to: copy)
  }

  @usableFromInline
  func resolve(
    arguments: repeat each Argument, in container: Container, parent: UnsafePointer<Frame>?,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    try Frame.enter(self, fallbackTag: fallbackTag, parent: parent, in: container) {
      frame throws(ResolutionError) in
      do {
        return try factory(Resolver(container: container, frame: frame), repeat each arguments)
      } catch let error as ResolutionError {
        throw error
      } catch {
        throw .factoryFailed(self, frame: frame, error: error, in: container)
      }
    }
  }
}
