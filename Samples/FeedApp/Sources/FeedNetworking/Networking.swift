import Joinery

/// The networking module: an HTTP client. The production binding is a fake that serves canned
/// responses and counts requests, so the sample runs anywhere without a network.
public protocol HTTPClient: Sendable {
  func get(_ path: String) throws -> String
}

/// Where the client points; bound once, read by the client.
public struct ServerConfiguration: Sendable {
  public let host: String
  public init(host: String) { self.host = host }
}

public enum HTTPError: Error, CustomStringConvertible {
  case notFound(host: String, path: String)
  public var description: String {
    switch self {
    case .notFound(let host, let path): "404 for \(host)\(path)"
    }
  }
}

/// Serves `/feed` as one headline per line, like a tiny plain-text API.
public final class FakeHTTPClient: HTTPClient {
  let configuration: ServerConfiguration
  let routes: [String: String] = [
    "/feed": """
    Joinery 1.0 released
    Frozen graphs explained
    Why tagged requests fall back
    """,
    "/profile/guest": "Guest user",
  ]

  public init(configuration: ServerConfiguration) { self.configuration = configuration }

  public func get(_ path: String) throws -> String {
    guard let body = routes[path] else {
      throw HTTPError.notFound(host: configuration.host, path: path)
    }
    return body
  }
}

/// Binds the networking module's interfaces. Other modules include it; a diamond of includes
/// registers it once.
public struct NetworkAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    // Only the client reads the configuration: private to this module.
    registrar.bind(
      ServerConfiguration.self, private: true,
      instance: ServerConfiguration(host: "news.example"))
    // Autowired: the initializer's parameter is resolved by type and checked by build().
    registrar.bind(
      (any HTTPClient).self, lifetime: .persistent, to: FakeHTTPClient.init(configuration:))
  }
}
