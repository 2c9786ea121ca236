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

/// Includes the modules the feature needs; each is registered once, however many features
/// include it.
public struct FeedAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    registrar.include(NetworkAssembly())
    registrar.include(StorageAssembly())
    registrar.include(AnalyticsAssembly())
    registrar.bind(
      FeedService.self, lifetime: .persistent, to: FeedService.init(client:store:analytics:))
    registrar.bind((any FeedServicing).self, forwardingTo: FeedService.self)
  }
}
