/// The type-erased part of a binding: its description and what the container needs to manage it
/// without knowing its type.
///
/// A binding is created by a ``Registrar`` during `build()`, owned by exactly one container, and
/// never changes its description afterwards. Subclasses own the lifetime state (locks, instance
/// slots) and synchronize it themselves, hence `@unchecked Sendable`.
class AnyBinding: @unchecked Sendable {
  let key: BindingKey
  let lifetime: Lifetime
  let location: BindingLocation
  let registerType: Any.Type
  let isOverride: Bool

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool
  ) {
    self.key = key
    self.lifetime = lifetime
    self.location = location
    self.registerType = registerType
    self.isOverride = isOverride
  }

  /// The public description.
  var info: BindingInfo {
    BindingInfo(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, forwardedTo: nil)
  }

  /// The thread creating this binding's shared instance right now, or 0.
  var creatingThread: UInt { 0 }

  /// For a forwarding binding, the key of the binding it converts from.
  var forwardTargetKey: BindingKey? { nil }

  /// Whether resolving needs runtime arguments.
  var needsArguments: Bool { false }

  /// Called once by `build()` after every binding of the container exists.
  func link(in container: Container) {}

  /// Resolves as `Any`, for eager creation and checks that do not know the type.
  func resolveAny(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> Any {
    preconditionFailure("\(Self.self) must override resolveAny")
  }
}

/// A binding that provides values of type `T` without runtime arguments.
///
/// The container stores it under a key whose type is `T`, so a lookup by `T` can downcast without
/// a dynamic check.
// Lifetime state lives in subclasses, each synchronized by its own gate or atomics.
class Binding<T>: AnyBinding, @unchecked Sendable {
  /// Produces the instance for a request, according to the lifetime.
  func resolve(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    preconditionFailure("\(Self.self) must override resolve")
  }

  override final func resolveAny(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> Any {
    try resolve(in: container, parent: parent, fallbackTag: fallbackTag)
  }
}

/// A factory that builds `T` from a resolver.
public typealias Factory<T> = @Sendable (borrowing Resolver) throws -> T

extension AnyBinding {
  /// Calls a user's factory in a new frame, wrapping what it throws with the path.
  @inline(__always)
  func run<T>(
    _ factory: Factory<T>, in container: Container, parent: UnsafePointer<Frame>?,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    try Frame.enter(self, fallbackTag: fallbackTag, parent: parent, in: container) {
      frame throws(ResolutionError) in
      try invoke(factory, frame: frame, in: container)
    }
  }

  @inline(__always)
  func invoke<T>(
    _ factory: Factory<T>, frame: UnsafePointer<Frame>, in container: Container
  ) throws(ResolutionError) -> T {
    do {
      return try factory(Resolver(container: container, frame: frame))
    } catch let error as ResolutionError {
      throw error
    } catch {
      throw .factoryFailed(self, frame: frame, error: error, in: container)
    }
  }
}
