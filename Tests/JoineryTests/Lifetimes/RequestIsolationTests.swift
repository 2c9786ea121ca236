import Joinery
import Testing

// One request never sees another's data: a server's request-scoped user, reached from
// longer-lived services by every path a factory can take.
private final class SignedInUser: Sendable {
  let name: String
  init(name: String) { self.name = name }
}
private final class PermissionService: Sendable {
  let user: SignedInUser
  init(user: SignedInUser) { self.user = user }
}
private final class Session: Sendable {}
private final class Settings: Sendable {
  let session: Session
  init(session: Session) { self.session = session }
}
/// A handler made per request, in the request's scope.
private final class EditHandler: Sendable {
  let user: Provider<SignedInUser>
  let lazyUser: Lazy<SignedInUser>
  init(user: Provider<SignedInUser>, lazyUser: Lazy<SignedInUser>) {
    self.user = user
    self.lazyUser = lazyUser
  }
}
/// A singleton that serves every request.
private final class Permissions: Sendable {
  let user: Provider<SignedInUser>
  init(user: Provider<SignedInUser>) { self.user = user }
  func name(in request: Scope) throws -> String { try user.get(in: request).name }
}

private func server(
  _ extra: @escaping @Sendable (inout Registrar) -> Void = { _ in }
) throws -> Container {
  try ContainerBuilder().adding { registrar in
    registrar.bindScopeValue(SignedInUser.self)
    registrar.bind(EditHandler.self, to: EditHandler.init(user:lazyUser:))
    registrar.bind(Permissions.self, lifetime: .persistent, to: Permissions.init(user:))
    extra(&registrar)
  }.build()
}

private func request(_ container: Container, user: String) throws -> Scope {
  try container.makeScope { $0.provide(SignedInUser(name: user)) }
}

@Suite("Request isolation")
struct RequestIsolationTests {
  @Test("A singleton whose closure resolves a scoped value during a request fails, naming both")
  func undeclaredCaptureFails() async throws {
    let container = try server { registrar in
      // Declares nothing: build() cannot see the edge.
      registrar.bind(PermissionService.self, lifetime: .persistent) { resolver in
        PermissionService(user: try resolver.resolve())
      }
    }
    for name in ["ann", "bob"] {
      let scope = try request(container, user: name)
      let error = #expect(throws: ResolutionError.self) {
        try scope.resolve(PermissionService.self)
      }
      #expect(error?.code == .captiveDependency)
      let report = error?.debugDescription ?? ""
      #expect(report.contains("SignedInUser"))
      #expect(report.contains("PermissionService, which is persistent"))
      #expect(report.contains("one scope's instance for every scope"))
      #expect(report.contains("Provider<SignedInUser>"))
      try await scope.close()
    }
  }

  @Test("Through a Provider or a captured container inside the factory, the same")
  func capturedThroughProviderOrContainer() async throws {
    let container = try server { registrar in
      registrar.bind(PermissionService.self, lifetime: .persistent) { (permissions: Permissions) in
        // The Provider is used while the singleton is being made.
        PermissionService(user: try permissions.user.get())
      }
    }
    let scope = try request(container, user: "ann")
    let error = #expect(throws: ResolutionError.self) { try scope.resolve(PermissionService.self) }
    #expect(error?.code == .captiveDependency)
    try await scope.close()
  }

  @Test("A transient instance requested while a persistent one is made fails, alive or not")
  func transientUnderPersistent() throws {
    for aliveFirst in [false, true] {
      let container = try server { registrar in
        registrar.bind(Session.self, lifetime: .transient) { Session() }
        registrar.bind(Settings.self, lifetime: .persistent) { resolver in
          Settings(session: try resolver.resolve())
        }
      }
      // Held by someone else: the request would be served the live instance.
      let held = aliveFirst ? try container.resolve(Session.self) : nil
      let error = #expect(throws: ResolutionError.self) { try container.resolve(Settings.self) }
      #expect(error?.code == .captiveDependency, "alive: \(aliveFirst)")
      withExtendedLifetime(held) {}
    }
  }

  @Test("A cached instance requested while a persistent one is made fails; acknowledged, it works")
  func cachedUnderPersistent() throws {
    let failing = try server { registrar in
      registrar.bind(Session.self, lifetime: .cached) { Session() }
      registrar.bind(Settings.self, lifetime: .persistent) { resolver in
        Settings(session: try resolver.resolve())
      }
    }
    let error = #expect(throws: ResolutionError.self) { try failing.resolve(Settings.self) }
    #expect(error?.code == .captiveDependency)
    #expect(error?.debugDescription.contains("Session") == true)

    let acknowledged = try server { registrar in
      registrar.bind(Session.self, lifetime: .cached) { Session() }
      registrar.bind(Settings.self, lifetime: .persistent) { resolver in
        Settings(session: try resolver.resolve())
      }
      registrar.allowCaptive(Settings.self, dependency: Session.self, because: "read at start")
    }
    #expect(throws: Never.self) { try acknowledged.resolve(Settings.self) }
  }

  @Test("A Provider or Lazy made in a scope resolves in it later, and refuses once it is closed")
  func providerMadeInScope() async throws {
    let container = try server()
    let ann = try request(container, user: "ann")
    let bob = try request(container, user: "bob")
    let annHandler = try ann.resolve(EditHandler.self)
    let bobHandler = try bob.resolve(EditHandler.self)
    // Called after the resolve returned, outside any factory.
    #expect(try annHandler.user.get().name == "ann")
    #expect(try bobHandler.user.get().name == "bob")
    #expect(try annHandler.lazyUser.get().name == "ann")
    #expect(try bobHandler.lazyUser.get() === bob.resolve(SignedInUser.self))
    try await ann.close()
    let closed = #expect(throws: ResolutionError.self) { try annHandler.user.get() }
    #expect(closed?.code == .shutDown)
    #expect(try bobHandler.user.get().name == "bob")
    try await bob.close()
  }

  @Test("A singleton's Provider belongs to no request: it takes the scope it serves")
  func singletonProvider() async throws {
    let container = try server()
    let ann = try request(container, user: "ann")
    // Made during ann's request, it must not remember ann's scope.
    let permissions = try ann.resolve(Permissions.self)
    let bob = try request(container, user: "bob")
    #expect(try permissions.name(in: ann) == "ann")
    #expect(try permissions.name(in: bob) == "bob")
    let outside = #expect(throws: ResolutionError.self) { try permissions.user.get() }
    #expect(outside?.code == .scopeRequired)
    // The report names the way out for a Provider that belongs to no scope.
    #expect(String(reflecting: outside).contains("provider.get(in: scope)"))
    try await ann.close()
    #expect(try permissions.name(in: bob) == "bob")
    #expect(throws: ResolutionError.self) { try permissions.name(in: ann) }
    try await bob.close()
  }
}
