import Joinery

/// The networking feature: an HTTP client that serves canned responses, so the sample runs
/// anywhere without a network.
protocol HTTPClient: Sendable {
  func get(_ path: String) throws -> String
}

final class CannedHTTPClient: HTTPClient {
  let responses: [String: String]
  init(responses: [String: String]) { self.responses = responses }

  func get(_ path: String) throws -> String {
    guard let body = responses[path] else { throw HTTPError.notFound(path) }
    return body
  }
}

enum HTTPError: Error, CustomStringConvertible {
  case notFound(String)
  var description: String {
    switch self {
    case .notFound(let path): "404 for \(path)"
    }
  }
}

struct NetworkAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(
      HTTPClient.self, lifetime: .persistent,
      to: {
        CannedHTTPClient(responses: [
          "/feed": "Joinery 1.0 released|Frozen graphs explained|Why tags fall back"
        ])
      })
  }
}
