import Joinery
import Vapor

/// One Joinery scope per request: made with the request's values, the draft saved only if the
/// request made one, then closed (which discards whatever was not saved). A factory's own
/// `Abort` (a refused sign-in) is the answer; any other resolution error is logged in full and
/// answered with a bare 500.
public struct ScopeMiddleware: AsyncMiddleware {
  let container: Container

  public init(container: Container) {
    self.container = container
  }

  public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws
    -> Response
  {
    let info = RequestInfo(path: request.url.path, user: request.headers.first(name: "x-user"))
    let scope = try container.makeScope { values in values.provide(info) }
    request.storage[ScopeKey.self] = scope
    do {
      return try await scope.run { scope in
        let response = try await next.respond(to: request)
        if scope.hasInstance(of: Draft.self) { try await scope.resolveAsync(Draft.self).save() }
        return response
      }
    } catch let error as ResolutionError {
      if let answer = error.underlyingError as? any AbortError { throw answer }
      request.logger.error("\(String(reflecting: error))")
      throw Abort(.internalServerError)
    }
  }
}

private struct ScopeKey: StorageKey {
  typealias Value = Scope
}

extension Request {
  /// The request's Joinery scope, made by ``ScopeMiddleware``.
  public var scope: Scope {
    get throws {
      guard let scope = storage[ScopeKey.self] else {
        throw Abort(.internalServerError, reason: "ScopeMiddleware is not installed")
      }
      return scope
    }
  }

  /// Resolves `type` in the request's scope.
  public func resolve<T>(_ type: T.Type) throws -> T {
    try scope.resolve(T.self)
  }

  /// Resolves `type`, which may be bound asynchronously, in the request's scope.
  public func resolveAsync<T: Sendable>(_ type: T.Type) async throws -> T {
    try await scope.resolveAsync(T.self)
  }
}

/// The production assemblies; tests pass their own overrides.
public func appAssemblies() -> [any DependencyRegister] {
  [NotesAssembly()]
}

/// Installs the scope middleware and the routes on `app`.
public func configure(_ app: Application, container: Container) {
  app.middleware.use(ScopeMiddleware(container: container))
  NotesAssembly.routes(app.grouped("notes"))
}

/// The trap this sample exists to show: shutting the container down in a `LifecycleHandler`.
/// Vapor runs lifecycle handlers *before* it stops its HTTP server, so the requests still in
/// flight find the pool closed. Shut the container down after `app.asyncShutdown()` instead.
public struct ContainerShutdownHandler: LifecycleHandler {
  let container: Container

  public init(container: Container) {
    self.container = container
  }

  public func shutdownAsync(_ application: Application) async {
    try? await container.shutdown()
  }
}
