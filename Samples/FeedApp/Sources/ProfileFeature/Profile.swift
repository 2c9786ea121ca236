import FeedAnalytics
import FeedFeature
import Joinery

/// The profile feature: the signed-in user's session, kept until logout, and a screen that
/// shows the user with their feed.
public final class UserSession: Sendable {
  public let user: String
  public init(user: String) { self.user = user }
}

extension CacheGroup {
  /// Everything that belongs to the signed-in user: reset on logout.
  public static let session = CacheGroup("session")
}

public final class ProfileScreen: Sendable {
  public let session: UserSession
  public let feed: any FeedServicing

  public init(session: UserSession, feed: any FeedServicing) {
    self.session = session
    self.feed = feed
  }

  public func render() throws -> [String] {
    ["\(session.user)'s feed:"] + (try feed.saved()).map { "  • \($0)" }
  }
}

public struct ProfileAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    registrar.include(AnalyticsAssembly())  // also included by FeedAssembly: registered once
    // The feed feature's export; the app adds FeedAssembly, which binds it.
    registrar.require((any FeedServicing).self)
    // A closure factory that declares what it resolves, so build() checks it like autowiring.
    registrar.bind(
      UserSession.self, lifetime: .cached(in: .session),
      dependsOn: [BindingKey((any Analytics).self, tag: BindingTag(AnalyticsTag.audit))]
    ) { resolver in
      try resolver.resolve((any Analytics).self, tag: AnalyticsTag.audit).track("session opened")
      return UserSession(user: "guest")
    }
    registrar.bind(ProfileScreen.self, to: ProfileScreen.init(session:feed:))
  }
}
