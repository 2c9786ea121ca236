import Hummingbird
import Joinery
import Logging
import ServiceLifecycle

/// The request context: Hummingbird's core context, and the request's Joinery scope.
public struct AppRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// Set by ``ScopeMiddleware`` before any route runs.
  public var scope: Scope?

  public init(source: Source) {
    coreContext = .init(source: source)
  }

  /// Resolves `type` in the request's scope.
  public func resolve<T>(_ type: T.Type) throws -> T {
    guard let scope else { throw HTTPError(.internalServerError, message: "no request scope") }
    return try scope.resolve(T.self)
  }
}

/// One Joinery scope per request: made with the request's values, the unit of work committed
/// only if the request made one, then closed (which rolls back whatever was not committed).
/// A factory's own HTTP error (a refused sign-in) is the answer; any other resolution error is
/// logged in full — path, bindings, advice — and answered with a bare 500.
public struct ScopeMiddleware: RouterMiddleware {
  public typealias Context = AppRequestContext
  let container: Container

  public init(container: Container) {
    self.container = container
  }

  public func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let info = RequestInfo(
      id: "\(request.headers[.init("x-request-id")!] ?? "-")", path: request.uri.path,
      user: request.headers[.init("x-user")!])
    var context = context
    context.scope = try container.makeScope { values in values.provide(info) }
    do {
      return try await context.scope!.run { scope in
        let response = try await next(request, context)
        // `resolveAsync` serves the unit of work whether it is bound with `bind` or `bindAsync`.
        if scope.hasInstance(of: UnitOfWork.self) {
          try await scope.resolveAsync(UnitOfWork.self).commit()
        }
        return response
      }
    } catch let error as ResolutionError {
      if let answer = error.underlyingError as? any HTTPResponseError { throw answer }
      context.logger.error("\(String(reflecting: error))")
      throw HTTPError(.internalServerError)
    }
  }
}

/// Shuts the container down when the service group stops. Add it to the application's
/// services: Hummingbird runs them before its HTTP server, and a service group stops services
/// in reverse order, so the server drains its requests first and the pool closes last.
public struct ContainerService: Service {
  let container: Container
  let logger: Logger

  public init(container: Container, logger: Logger) {
    self.container = container
    self.logger = logger
  }

  public func run() async throws {
    // Wait for the graceful shutdown (or cancellation) of the group.
    try? await gracefulShutdown()
    do {
      try await container.shutdown()
      logger.info("container shut down: every instance disposed")
    } catch {
      logger.error("shutdown: \(error)")
    }
  }
}

/// The production assemblies; tests pass their own overrides.
public func appAssemblies(_ configuration: ServerConfiguration) -> [any DependencyRegister] {
  [InfrastructureAssembly(configuration: configuration), OrdersAssembly(), HealthAssembly()]
}

/// The application over a built container. `shutsDownContainer`: whether the application's
/// own services shut the container down after the server drained (tests that show the wrong
/// order pass `false` and add the service themselves). `onServerRunning` gets the bound port.
public func makeApplication(
  container: Container, logger: Logger = Logger(label: "ServerApp"),
  shutsDownContainer: Bool = true,
  onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
  let configuration = try container.resolve(ServerConfiguration.self)
  let router = Router(context: AppRequestContext.self)
  router.middlewares.add(ScopeMiddleware(container: container))
  OrdersAssembly.routes(router.group("orders"))
  HealthAssembly.routes(router.group("health"))
  var app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: configuration.port)),
    onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
    logger: logger)
  // Services stop in reverse order: the server first, then the container (its disposers may
  // still use the event log), then the event log.
  app.addServices(try container.resolve(EventLog.self))
  if shutsDownContainer {
    app.addServices(ContainerService(container: container, logger: logger))
  }
  return app
}
