import Joinery

// 1. Compose the feature assemblies with a builder and freeze them into a container.
let production = ContainerBuilder(FeedAssembly(), ProfileAssembly())
let container = try production.build()

print("Joinery FeedApp")
print("")
print("Bindings in the container:")
for binding in container.bindings {
  print("  \(binding)")
}

// 2. Resolve a graph: FeedServicing → FeedService → (HTTPClient, EventLog).
print("")
print("Headlines, resolved through FeedServicing:")
let feed = try container.resolve(FeedServicing.self)
for headline in try feed.headlines() {
  print("  • \(headline)")
}
let concrete = try container.resolve(FeedService.self)
print("  FeedServicing and FeedService share one instance: \(feed as AnyObject === concrete)")

// 3. Tags fall back to the untagged binding, keeping its identity.
let untagged = try container.resolve(EventLog.self)
let fallback = try container.resolve(EventLog.self, tag: "marketing")
print("  A request tagged \"marketing\" falls back to the same EventLog: \(untagged === fallback)")

// 4. Cached instances live until their group is reset (log out, log in).
let first = try container.resolve(UserSession.self)
container.reset(.session)
let second = try container.resolve(UserSession.self)
print("  After reset(.session) a new UserSession is built: \(first !== second)")

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

// 6. A broken configuration fails at build with every problem, each with its location.
struct BrokenAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(HTTPClient.self) { _ in CannedHTTPClient(responses: [:]) }
    registrar.bind(Int.self, lifetime: .transient) { _ in 42 }
    registrar.bind(Refreshing.self, forwardingTo: FeedRefresher.self)
  }
}
protocol Refreshing {}
final class FeedRefresher: Refreshing {}
print("")
print("Building a broken configuration:")
do {
  _ = try production.adding(BrokenAssembly()).build()
} catch {
  print(error.debugDescription)
}

// 7. A failed resolve explains itself.
print("")
print("Resolving something that is not bound:")
do {
  _ = try container.resolve(FeedRefresher.self)
} catch {
  print(error.debugDescription)
}
