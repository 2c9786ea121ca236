import Hummingbird
import Joinery

/// Answers health checks from the request's scope values, without touching the database: no
/// unit of work is made, so nothing is committed.
public struct HealthReport: Sendable {
  let request: RequestInfo
  public init(request: RequestInfo) { self.request = request }
  var text: String { "ok (request \(request.id))" }
}

public struct HealthAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    registrar.bind(HealthReport.self, to: HealthReport.init(request:))
  }

  public static func routes(_ group: RouterGroup<AppRequestContext>) {
    group.get { _, context -> String in
      try context.resolve(HealthReport.self).text
    }
  }
}
