/// The container a type was made in, kept for later: a Router that resolves screens as the user
/// navigates, a `dependencies: self` facade, a manager that swaps the signed-in user.
///
/// Take it as a dependency, like any other: every container serves it without a binding, and
/// `build()` accepts it under any lifetime. It holds the container weakly, so a singleton that
/// keeps it does not keep its container alive, and it is `Sendable`. It resolves with every
/// form a container has — `resolve`, `resolveAll`, `resolveAsync`, `resolveAllAsync`,
/// `hasInstance` — and each request gets a top-level resolve's checks: a main-actor binding
/// needs the main actor, a shut-down container (or a gone one) throws
/// ``ResolutionError/Code/shutDown``, a request made while a factory runs joins its chain and
/// is checked for cycles and captives.
///
/// ```swift
/// final class Router: Sendable {
///   private let container: ContainerReference
///   init(container: ContainerReference) { self.container = container }
///
///   func detail(for id: Int) throws -> DetailScreen {
///     try container.resolve(DetailScreen.self, arguments: id)
///   }
/// }
///
/// registrar.bind(Router.self, lifetime: .persistent, to: Router.init(container:))
/// ```
///
/// Made for an instance in a ``Scope`` (a scoped or ephemeral binding resolved there), it
/// resolves in that scope, and throws ``ResolutionError/Code/shutDown`` once the scope is
/// closed. Made for a container-wide instance (persistent, cached, transient), it resolves in
/// no scope: that instance outlives every request, and a scoped binding resolved through it
/// throws ``ResolutionError/Code/scopeRequired``.
///
/// What it resolves later is not in the type's initializer, so `build()` cannot see it. Declare
/// it with a closure's `dependsOn:` and `build()` checks each is bound:
///
/// ```swift
/// registrar.bind(
///   Router.self, lifetime: .persistent,
///   dependsOn: [BindingKey(ContainerReference.self), BindingKey(SettingsScreen.self)]
/// ) { resolver in Router(container: try resolver.resolve()) }
/// ```
public struct ContainerReference: Sendable {
  @usableFromInline weak var container: Container?
  /// The scope it was made in, kept weakly.
  @usableFromInline weak var scope: Scope?
  /// Whether it was made in a scope (which may since have been closed and released).
  @usableFromInline let isScoped: Bool

  init(container: Container, scope: Scope?) {
    self.container = container
    self.scope = scope
    isScoped = scope != nil
  }

  /// The error for a container or scope that no longer exists.
  @usableFromInline @inline(never)
  func released<T>(_: T.Type) -> ResolutionError {
    .containerReleased(BindingKey(T.self))
  }
}

extension ContainerReference: Resolving {
  /// The reference's entry: a top-level request to the container it was made in (in its scope,
  /// if it was made in one), kept alive for the request.
  @inlinable @inline(__always)
  public func _requestPoint<T>(
    for _: T.Type, isolation: (any Actor)?, checkingOpen: Bool
  ) throws(ResolutionError) -> _RequestPoint {
    if isScoped {
      guard let scope else { throw released(T.self) }
      if checkingOpen { try scope.checkOpen(T.self) }
      return _RequestPoint(
        container: scope.container, scope: scope, isolation: isolation, owner: scope)
    }
    guard let container else { throw released(T.self) }
    if checkingOpen { try container.checkOpen(T.self) }
    return _RequestPoint(container: container, scope: nil, isolation: isolation, owner: container)
  }
}
