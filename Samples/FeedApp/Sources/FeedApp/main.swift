import FeedAnalytics
import FeedFeature
import FeedNetworking
import FeedStorage
import Joinery
import ProfileFeature

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The composition root: the only place that knows every feature module. Each feature brings
// its own assembly: it includes the modules it owns (storage, analytics), keeps its
// implementation private, exports a protocol, and requires what another module provides (the
// HTTP client, the feed).
//
//   swift run FeedApp                         fetch, save and show the feed through the graph
//   swift run FeedApp --graph mermaid|dot|tree   print the dependency graph
//   swift run FeedApp --broken                build a deliberately broken configuration
let production = ContainerBuilder(NetworkAssembly(), FeedAssembly(), ProfileAssembly())

switch CommandLine.arguments.dropFirst().first {
case "--graph":
  try printGraph(production, format: CommandLine.arguments.dropFirst(2).first ?? "tree")
case "--broken":
  buildBrokenConfiguration(production)
case nil:
  try run(production)
case let other?:
  print("Unknown option \(other). Options: --graph mermaid|dot|tree, --broken")
  exit(2)
}

func run(_ production: ContainerBuilder) throws {
  // 1. Freeze the assemblies into a container: build() checks the whole graph first.
  let container = try production.build()
  print("Joinery FeedApp: \(container.bindings.count) bindings from 5 modules, graph checked")

  // 2. Resolve the feature's entry point; its dependencies come with it.
  print("")
  print("Refreshing the feed (network → disk → analytics):")
  let feed = try container.resolve((any FeedServicing).self)
  _ = try feed.refresh()

  print("")
  let screen = try container.resolve(ProfileScreen.self)
  for line in try screen.render() { print(line) }
  print("")
  print(
    "The profile's feed is the FeedServicing every module gets: "
      + "\(screen.feed as AnyObject === feed as AnyObject)")
  // FeedService is private to FeedAssembly: the app (or another feature) cannot ask for it.
  do {
    _ = try container.resolve(FeedService.self)
  } catch {
    print("Resolving the private FeedService from the app: \(error.code)")
  }

  // 3. A tag with no binding of its own falls back to the untagged one, same instance.
  let analytics = try container.resolve((any Analytics).self)
  let marketing = try container.resolve((any Analytics).self, tag: "marketing")
  print(
    "A request tagged \"marketing\" gets the untagged Analytics: "
      + "\(analytics as AnyObject === marketing as AnyObject)")

  // 4. Log out: the session's cached instances go, the next resolve builds new ones.
  container.reset(.session)
  let next = try container.resolve(ProfileScreen.self)
  print("After logout, a new UserSession: \(next.session !== screen.session)")

  // 5. What a test does: the same production assemblies, the network swapped for a stub.
  struct OfflineNetwork: Assembly {
    func register(in registrar: inout Registrar) {
      registrar.bind((any HTTPClient).self) { _ in Offline() }
    }
    struct Offline: HTTPClient {
      func get(_ path: String) throws -> String { "You are offline" }
    }
  }
  let offline = try production.overriding(with: OfflineNetwork()).build()
  print("")
  print("With a test assembly overriding HTTPClient:")
  for headline in try offline.resolve((any FeedServicing).self).refresh() {
    print("  • \(headline)")
  }

  // The sample cleans up the folders its stores wrote to.
  try container.resolve(StorageDirectory.self).remove()
  try offline.resolve(StorageDirectory.self).remove()

  print("")
  print("Next: swift run FeedApp --graph tree   (or mermaid, dot)")
  print("      swift run FeedApp --broken       (what build() says about a broken graph)")
}

func printGraph(_ production: ContainerBuilder, format: String) throws {
  // The graph build() checked. `container.verify().graph` would also build every binding once,
  // in a throwaway copy, and add what undeclared closure factories resolve.
  let graph = try production.build().graph
  switch format {
  case "mermaid": print(graph.mermaid)
  case "dot": print(graph.dot)
  case "tree": print(graph.tree(from: BindingKey(ProfileScreen.self)))
  default:
    print("Unknown graph format \(format). Formats: mermaid, dot, tree")
    exit(2)
  }
}

// A configuration with six mistakes. build() reports all of them at once, each with the line
// that declared it and how to fix it; nothing is resolved, nothing crashes.
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
    registrar.bind((any HTTPClient).self) { _ in FakeHTTPClient(configuration: .init(host: "")) }
    registrar.bind(Refresher.self, to: Refresher.init(scheduler:))
    registrar.bind(Scheduler.self, to: Scheduler.init(refresher:))
    registrar.bind(Badge.self, to: Badge.init(counter:))
    registrar.bind(Int.self, tag: "retries", lifetime: .transient) { _ in 3 }
  }
}

/// A feature that reaches past another module's boundary: it depends on FeedAssembly's private
/// FeedService, and requires it too.
struct TrendingAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.require(FeedService.self)
    registrar.bind(Trending.self, to: Trending.init(feed:))
  }
}
final class Trending: Sendable {
  init(feed: FeedService) {}
}

func buildBrokenConfiguration(_ production: ContainerBuilder) {
  print("Building the production assemblies plus BrokenAssembly and TrendingAssembly:")
  print("")
  do throws(BuildError) {
    _ = try production.adding(BrokenAssembly()).adding(TrendingAssembly()).build()
    print("It built, which it should not have.")
    exit(1)
  } catch {
    print(error.debugDescription)
  }
  print("")
  print("And a resolve of something that is not bound:")
  do {
    _ = try production.build().resolve(Counter.self)
  } catch let error as ResolutionError {
    print(error.debugDescription)
  } catch {
    print(error)
  }
}
