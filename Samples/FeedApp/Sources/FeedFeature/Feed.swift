import FeedAnalytics
import FeedNetworking
import FeedStorage
import Joinery

/// The feed feature: fetches headlines, keeps the last ones on disk, reports what it did.
public protocol FeedServicing: Sendable {
  /// Fetches the headlines and saves them.
  func refresh() throws -> [String]
  /// The headlines saved by the last refresh, without the network.
  func saved() throws -> [String]
}

public final class FeedService: FeedServicing {
  let client: any HTTPClient
  let store: any FeedStore
  let analytics: any Analytics

  public init(client: any HTTPClient, store: any FeedStore, analytics: any Analytics) {
    self.client = client
    self.store = store
    self.analytics = analytics
  }

  public func refresh() throws -> [String] {
    let headlines = try client.get("/feed").split(separator: "\n").map(String.init)
    let path = try store.save(headlines, as: "feed")
    analytics.track("feed refreshed: \(headlines.count) headlines saved to \(path)")
    return headlines
  }

  public func saved() throws -> [String] {
    try store.load("feed") ?? []
  }
}

/// The feed feature's module: it exports `FeedServicing` and keeps its implementation private.
///
/// It includes the modules it owns outright (storage) and shares (analytics; a diamond of
/// includes registers it once), and requires the one the app chooses: the HTTP client.
public struct FeedAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    registrar.include(StorageAssembly())
    registrar.include(AnalyticsAssembly())
    // Provided by another module (NetworkAssembly in the app, a stub in a test).
    registrar.require((any HTTPClient).self)
    // Private: only this module's bindings may depend on the class itself.
    registrar.bind(
      FeedService.self, lifetime: .persistent, private: true,
      to: FeedService.init(client:store:analytics:))
    // What other modules depend on.
    registrar.bind((any FeedServicing).self, forwardingTo: FeedService.self)
  }
}
