import Joinery
import Logging
import ServerAppCore

// The server: one root container for the process, built (and its pool opened) before the
// first request, shut down after the HTTP server has drained on SIGINT/SIGTERM.
//   swift run --package-path Samples/ServerApp ServerApp
//   curl -X POST localhost:8080/orders -d "coffee"; curl localhost:8080/orders
let logger = Logger(label: "ServerApp")
let arguments = CommandLine.arguments
var configuration = ServerConfiguration()
if let at = arguments.firstIndex(of: "--port"), at + 1 < arguments.count,
  let port = Int(arguments[at + 1])
{
  configuration.port = port
}
let container: Container
do {
  container = try await ContainerBuilder(appAssemblies(configuration)).buildAsync()
} catch {
  logger.critical("\(String(reflecting: error))")
  throw error
}
let app = try makeApplication(container: container, logger: logger)
try await app.runService()
