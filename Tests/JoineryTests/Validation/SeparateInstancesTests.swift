import Joinery
import Testing

// A Swinject app's shape: singletons (`.container`) over registrations that name no scope
// (Swinject's default `.graph`), some behind protocols.
private protocol Tracking: AnyObject, Sendable {}
private protocol Reporting: AnyObject, Sendable {}
private final class AnalyticsManager: Tracking, Reporting, Sendable {}
private final class APIClient: Sendable {}
private struct Endpoint: Sendable { let path = "/" }
private final class FeedStore: Sendable {
  let api: APIClient
  let tracking: any Tracking
  let endpoint: Endpoint
  init(api: APIClient, tracking: any Tracking, endpoint: Endpoint) {
    self.api = api
    self.tracking = tracking
    self.endpoint = endpoint
  }
}
private final class ProfileStore: Sendable {
  let api: APIClient
  let reporting: any Reporting
  let endpoint: Endpoint
  init(api: APIClient, reporting: any Reporting, endpoint: Endpoint) {
    self.api = api
    self.reporting = reporting
    self.endpoint = endpoint
  }
}
private final class SettingsStore: Sendable {
  let tracking: any Tracking
  init(tracking: any Tracking) { self.tracking = tracking }
}
private final class Session: Sendable {}
private final class Token: Sendable {}
private final class Clock: Sendable {}
private final class Vault: Sendable {
  let session: Session
  let token: Token
  let clock: Clock
  init(session: Session, token: Token, clock: Clock) {
    self.session = session
    self.token = token
    self.clock = clock
  }
}

/// Swinject's default scope mapped as the Migrating guide maps it.
private struct LegacyAssembly: Assembly {
  var explicitAPI = false
  var defaultLifetime: Lifetime.For<Any>? { .graph }
  func register(in registrar: inout Registrar) {
    registrar.bind(AnalyticsManager.self, to: AnalyticsManager.init)
    registrar.bind((any Tracking).self, forwardingTo: AnalyticsManager.self)
    registrar.bind((any Reporting).self, forwardingTo: AnalyticsManager.self)
    if explicitAPI {
      registrar.bind(APIClient.self, lifetime: .graph, to: APIClient.init)
    } else {
      registrar.bind(APIClient.self, to: APIClient.init)
    }
    registrar.bind(Endpoint.self, to: Endpoint.init)
    registrar.bind(FeedStore.self, lifetime: .persistent, to: FeedStore.init)
    registrar.bind(ProfileStore.self, lifetime: .persistent, to: ProfileStore.init)
    registrar.bind(SettingsStore.self, lifetime: .cached, to: SettingsStore.init)
  }
}

private func separate(_ warnings: [Diagnostic]) -> [Diagnostic] {
  warnings.filter { $0.code == .captiveDependency && !$0.isError }
}

@Suite("Long-lived bindings over graph and ephemeral ones")
struct SeparateInstancesTests {
  @Test("A graph-default container with singletons over unscoped bindings builds")
  func swinjectShapeBuilds() throws {
    let container = try ContainerBuilder(LegacyAssembly()).build()
    let feed = try container.resolve(FeedStore.self)
    let profile = try container.resolve(ProfileStore.self)
    // Each singleton keeps the instance its own resolution made, as with an ephemeral one.
    #expect(feed.api !== profile.api)
    #expect(try container.resolve(FeedStore.self) === feed)
  }

  @Test("Several long-lived keepers of one default-lifetime binding: one warning each, naming them")
  func oneWarningPerKeptBinding() throws {
    let container = try ContainerBuilder(LegacyAssembly()).build()
    let warnings = separate(container.warnings)
    // AnalyticsManager (through two protocols) and APIClient; not Endpoint, a value type.
    #expect(warnings.map { "\($0.key)" }.sorted() == ["APIClient", "AnalyticsManager"])
    let analytics = try #require(
      warnings.first { ObjectIdentifier($0.key.type) == ObjectIdentifier(AnalyticsManager.self) })
    #expect(analytics.message.contains("3 long-lived bindings keep it"))
    for keeper in ["FeedStore (persistent", "ProfileStore (persistent", "SettingsStore (cached"] {
      #expect(analytics.message.contains(keeper), "\(keeper)")
    }
    #expect(analytics.fixes.contains { $0.contains("lifetime: .persistent") })
    #expect(analytics.bindings.count == 4)
  }

  @Test("A lifetime written at the binding is a choice: no warning")
  func explicitLifetimeIsNotReported() throws {
    let container = try ContainerBuilder(LegacyAssembly(explicitAPI: true)).build()
    #expect(
      !separate(container.warnings).contains {
        ObjectIdentifier($0.key.type) == ObjectIdentifier(APIClient.self)
      })
    #expect(
      separate(container.warnings).contains {
        ObjectIdentifier($0.key.type) == ObjectIdentifier(AnalyticsManager.self)
      })
  }

  @Test("One keeper, or an acknowledged one, is no warning")
  func singleOrAcknowledgedKeeper() throws {
    let single = try ContainerBuilder().adding { registrar in
      registrar.bind(APIClient.self, to: APIClient.init)
      registrar.bind(SettingsStore.self, lifetime: .persistent) { _ in
        SettingsStore(tracking: AnalyticsManager())
      }
      registrar.bind(Session.self, lifetime: .persistent) { _ in Session() }
      registrar.bind(FeedStore.self, lifetime: .persistent) { r in
        FeedStore(api: try r.resolve(), tracking: AnalyticsManager(), endpoint: Endpoint())
      }
    }.build()
    #expect(separate(single.warnings).isEmpty)

    var acknowledged = LegacyAssembly()
    acknowledged.explicitAPI = true
    let container = try ContainerBuilder(acknowledged).adding { registrar in
      registrar.allowCaptive(
        FeedStore.self, dependency: (any Tracking).self, because: "its own tracker")
      registrar.allowCaptive(
        ProfileStore.self, dependency: (any Reporting).self, because: "its own reporter")
    }.build()
    #expect(separate(container.warnings).isEmpty)
  }

  @Test("A consumer's captures are one finding that names each of them")
  func capturesGroupedUnderTheConsumer() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(Session.self, lifetime: .cached, to: Session.init)
        registrar.bind(Token.self, lifetime: .transient, to: Token.init)
        registrar.bind(Clock.self, lifetime: .scoped, to: Clock.init)
        registrar.bind(Vault.self, lifetime: .persistent, to: Vault.init)
      }.build()
    }
    let captives = error?.diagnostics.filter { $0.code == .captiveDependency } ?? []
    #expect(captives.count == 1)
    let finding = try #require(captives.first)
    #expect(ObjectIdentifier(finding.key.type) == ObjectIdentifier(Vault.self))
    #expect(finding.message.contains("keeps 3 shorter-lived dependencies"))
    for name in ["Session, which is cached", "Token, which is transient", "Clock, which is scoped"]
    {
      #expect(finding.message.contains(name), "\(name)")
    }
  }

  @Test("A cached consumer's error and warning captures are a finding each")
  func severitiesStaySeparate() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(Token.self, lifetime: .transient, to: Token.init)
        registrar.bind(Clock.self, lifetime: .scoped, to: Clock.init)
        registrar.bind(Session.self, lifetime: .persistent, to: Session.init)
        registrar.bind(Vault.self, lifetime: .cached, to: Vault.init)
      }.build()
    }
    let captives = error?.diagnostics.filter { $0.code == .captiveDependency } ?? []
    #expect(captives.map(\.isError).sorted { $0 && !$1 } == [true, false])
    #expect(captives.first { $0.isError }?.message.contains("Clock, which is scoped") == true)
    #expect(captives.first { !$0.isError }?.message.contains("Token, which is transient") == true)
  }
}

// A persistent repository that took the request's unit of work lazily, as a "fix" for the
// captive error a direct dependency gives.
private final class UnitOfWork: Sendable {}
private final class Repository: Sendable {
  let work: Lazy<UnitOfWork>
  init(work: Lazy<UnitOfWork>) { self.work = work }
}
private final class Auditor: Sendable {
  let work: Provider<UnitOfWork>
  init(work: Provider<UnitOfWork>) { self.work = work }
}

@Suite("A Lazy keeps what it first made")
struct LazyCaptiveTests {
  @Test("A persistent holding Lazy of a scoped binding fails build(), saying why")
  func lazyOfScopedUnderPersistent() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(UnitOfWork.self, lifetime: .scoped, to: UnitOfWork.init)
        registrar.bind(Repository.self, lifetime: .persistent, to: Repository.init(work:))
      }.build()
    }
    let finding = try #require(error?.diagnostics.first { $0.code == .captiveDependency })
    #expect(finding.isError)
    #expect(ObjectIdentifier(finding.key.type) == ObjectIdentifier(Repository.self))
    #expect(finding.message.contains("through a Lazy"), "\(finding.message)")
    #expect(finding.fixes.contains { $0.contains("Provider<UnitOfWork>") })
  }

  @Test("A Provider of a scoped binding under a persistent one builds: a new request each time")
  func providerOfScopedBuilds() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(UnitOfWork.self, lifetime: .scoped, to: UnitOfWork.init)
      registrar.bind(Auditor.self, lifetime: .persistent, to: Auditor.init(work:))
    }.build()
    let auditor = try container.resolve(Auditor.self)
    let first = container.makeScope()
    let second = container.makeScope()
    #expect(try auditor.work.get(in: first) !== (try auditor.work.get(in: second)))
  }

  @Test("A Lazy in a scoped consumer is fine: both end with the scope")
  func lazyInScopedConsumer() throws {
    _ = try ContainerBuilder().adding { registrar in
      registrar.bind(UnitOfWork.self, lifetime: .scoped, to: UnitOfWork.init)
      registrar.bind(Repository.self, lifetime: .scoped, to: Repository.init(work:))
    }.build()
  }
}
