import Joinery
import Logging
import Vapor
import VaporAppCore

// The server: one container for the process, built (its pool opened) before the first request,
// shut down after Vapor's HTTP server has drained on SIGINT/SIGTERM.
//   swift run --package-path Samples/VaporApp VaporApp serve --port 8080
//   curl -X POST localhost:8080/notes -d "buy milk"; curl localhost:8080/notes
var environment = try Environment.detect()
try LoggingSystem.bootstrap(from: &environment)
let app = try await Application.make(environment)
let container: Container
do {
  container = try await ContainerBuilder(appAssemblies()).buildAsync()
} catch {
  app.logger.critical("\(String(reflecting: error))")
  try await app.asyncShutdown()
  throw error
}
configure(app, container: container)
do {
  try await app.execute()
} catch {
  app.logger.report(error: error)
}
// Not in a LifecycleHandler: Vapor runs those before its server stops. Here the server has
// drained its requests; then the container disposes the pool.
try await app.asyncShutdown()
try await container.shutdown()
