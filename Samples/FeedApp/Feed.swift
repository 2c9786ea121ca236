import Joinery

/// The analytics feature: an event log, plus a tagged variant for audit events.
final class EventLog: Sendable {
  let channel: String
  init(channel: String) { self.channel = channel }
  func record(_ event: String) { print("    [\(channel)] \(event)") }
}

struct AnalyticsAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(EventLog.self, lifetime: .persistent, to: { EventLog(channel: "analytics") })
    registrar.bind(
      EventLog.self, tag: "audit", lifetime: .persistent, to: { EventLog(channel: "audit") })
  }
}

/// The feed feature: a service that fetches headlines through the HTTP client.
protocol FeedServicing: Sendable {
  func headlines() throws -> [String]
}

final class FeedService: FeedServicing {
  let client: any HTTPClient
  let log: EventLog
  init(client: any HTTPClient, log: EventLog) {
    self.client = client
    self.log = log
  }

  func headlines() throws -> [String] {
    log.record("feed requested")
    return try client.get("/feed").split(separator: "|").map(String.init)
  }
}

struct FeedAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    // Both features need networking and analytics; each is included once however many
    // features include it.
    registrar.include(NetworkAssembly())
    registrar.include(AnalyticsAssembly())
    // Autowired: the initializer's parameters are resolved by type and checked by build().
    registrar.bind(FeedService.self, lifetime: .persistent, to: FeedService.init(client:log:))
    registrar.bind(FeedServicing.self, forwardingTo: FeedService.self)
  }
}

/// The profile feature: a per-session object reset on logout.
final class UserSession: Sendable {
  let user: String
  init(user: String) { self.user = user }
}

extension CacheGroup {
  static let session = CacheGroup("session")
}

final class ProfileScreen: Sendable {
  let session: UserSession
  let feed: any FeedServicing
  init(session: UserSession, feed: any FeedServicing) {
    self.session = session
    self.feed = feed
  }
}

struct ProfileAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.include(AnalyticsAssembly())
    // A closure factory that declares what it resolves, so build() checks it too.
    registrar.bind(
      UserSession.self, lifetime: .cached(in: .session),
      dependsOn: [BindingKey(EventLog.self, tag: "audit")]
    ) { resolver in
      try resolver.resolve(EventLog.self, tag: "audit").record("session opened")
      return UserSession(user: "guest")
    }
    registrar.bind(ProfileScreen.self, to: ProfileScreen.init(session:feed:))
  }
}
