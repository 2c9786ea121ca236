import Joinery

/// The process's configuration.
public struct ServerConfiguration: Sendable {
  public var databaseURL: String
  public var port: Int

  public init(databaseURL: String = "postgres://localhost/shop", port: Int = 8080) {
    self.databaseURL = databaseURL
    self.port = port
  }
}

/// What each request's scope is given: declared here so that `build()` checks every binding
/// that depends on it.
public struct RequestInfo: Sendable {
  public let id: String
  public let path: String
  /// The signed-in user's name (the `x-user` header: a stand-in for real authentication).
  public var user: String? = nil
}

/// The shared infrastructure: the pool (opened asynchronously by `buildAsync()`, closed by
/// `shutdown()`), and the per-request unit of work over it.
public struct InfrastructureAssembly: Assembly {
  let configuration: ServerConfiguration

  public init(configuration: ServerConfiguration) {
    self.configuration = configuration
  }

  public func register(in registrar: inout Registrar) {
    registrar.bind(ServerConfiguration.self, instance: configuration)
    // A service of the service group (`run()`, no `close()`): made here, run and stopped there.
    registrar.bind(EventLog.self, lifetime: .persistent, to: EventLog.init)
    registrar.bindAsync(
      Database.self, lifetime: .persistent(eager: true), dispose: { await $0.close() },
      to: { (configuration: ServerConfiguration, events: EventLog) in
        try await Database.connect(url: configuration.databaseURL, events: events)
      })
    registrar.bindScopeValue(RequestInfo.self)
    registrar.bind(
      UnitOfWork.self, lifetime: .scoped, dispose: { await $0.rollBackIfOpen() },
      to: UnitOfWork.init(database:))
  }
}
