import Joinery

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `swift run FeedApp` walks through the library; `swift run FeedApp --graph mermaid|dot|tree`
// prints the app's dependency graph instead.
let arguments = CommandLine.arguments.dropFirst()

// 1. Compose the feature assemblies with a builder and freeze them into a container.
let production = ContainerBuilder(FeedAssembly(), ProfileAssembly())
let container = try production.build()

if let option = arguments.first, option == "--graph" {
  let graph = container.graph
  switch arguments.dropFirst().first ?? "tree" {
  case "mermaid": print(graph.mermaid)
  case "dot": print(graph.dot)
  default: print(graph.tree(from: BindingKey(ProfileScreen.self)))
  }
  exit(0)
}

print("Joinery FeedApp")
print("")
print("Bindings in the container:")
for binding in container.bindings {
  print("  \(binding)")
}

// 2. Resolve a graph: ProfileScreen → (UserSession, FeedServicing → FeedService → ...).
print("")
print("Headlines, resolved through ProfileScreen → FeedServicing:")
let screen = try container.resolve(ProfileScreen.self)
for headline in try screen.feed.headlines() {
  print("  • \(headline)")
}
let concrete = try container.resolve(FeedService.self)
print(
  "  FeedServicing and FeedService share one instance: \(screen.feed as AnyObject === concrete)")

// 3. Tags fall back to the untagged binding, keeping its identity.
let untagged = try container.resolve(EventLog.self)
let fallback = try container.resolve(EventLog.self, tag: "marketing")
print("  A request tagged \"marketing\" falls back to the same EventLog: \(untagged === fallback)")

// 4. Cached instances live until their group is reset (log out, log in).
container.reset(.session)
let next = try container.resolve(ProfileScreen.self)
print("  After reset(.session) a new UserSession is built: \(next.session !== screen.session)")

// 5. A test-style override: replace the HTTP client without touching production assemblies.
struct OfflineNetwork: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(HTTPClient.self, lifetime: .persistent) { _ in
      CannedHTTPClient(responses: ["/feed": "You are offline"])
    }
  }
}
let testContainer = try production.overriding(with: OfflineNetwork()).build()
print("")
print("With OfflineNetwork overriding HTTPClient:")
for headline in try testContainer.resolve(FeedServicing.self).headlines() {
  print("  • \(headline)")
}

// 6. The graph, checked at build; print it with `swift run FeedApp --graph tree`.
print("")
print("ProfileScreen's dependencies (verified):")
print(try container.verify().graph.tree(from: BindingKey(ProfileScreen.self)))

// 7. A broken configuration fails at build with every problem, each with its location.
final class Refresher: Sendable {
  init(scheduler: Scheduler) {}
}
final class Scheduler: Sendable {
  init(refresher: Refresher) {}
}
final class Badge: Sendable {
  init(counter: Counter) {}
}
final class Counter: Sendable {}
struct BrokenAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(HTTPClient.self) { _ in CannedHTTPClient(responses: [:]) }  // a duplicate
    registrar.bind(Refresher.self, to: Refresher.init(scheduler:))  // a cycle...
    registrar.bind(Scheduler.self, to: Scheduler.init(refresher:))  // ...through these two
    registrar.bind(Badge.self, to: Badge.init(counter:))  // Counter is not bound
    registrar.bind(Int.self, tag: "retries", lifetime: .transient, to: { 3 })  // weak on a value
  }
}
print("")
print("Building a broken configuration:")
do {
  _ = try production.adding(BrokenAssembly()).build()
} catch {
  print(error.debugDescription)
}

// 8. A failed resolve explains itself.
print("")
print("Resolving something that is not bound:")
do {
  _ = try container.resolve(Counter.self)
} catch {
  print(error.debugDescription)
}
