import FeedAnalytics
import FeedFeature
import FeedNetworking
import FeedStorage
import Joinery
import JoineryTesting
import ProfileFeature
import Testing

// How an app's test target uses Joinery: the production assemblies, with a test assembly that
// overrides the bindings a test must control. Nothing in the feature modules changes.

/// Serves fixed headlines and remembers which paths were asked for.
final class StubHTTPClient: HTTPClient {
  let headlines: [String]
  let requested = Locked<[String]>([])
  init(headlines: [String]) { self.headlines = headlines }

  func get(_ path: String) throws -> String {
    requested.withLock { $0.append(path) }
    return headlines.joined(separator: "\n")
  }
}

/// Keeps saved lines in memory instead of files.
final class InMemoryFeedStore: FeedStore {
  let saved = Locked<[String: [String]]>([:])

  func save(_ lines: [String], as name: String) throws -> String {
    saved.withLock { $0[name] = lines }
    return "memory:\(name)"
  }

  func load(_ name: String) throws -> [String]? { saved.withLock { $0[name] } }
}

/// Overrides networking, storage and analytics; everything else is production.
struct TestDoubles: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind((any HTTPClient).self, lifetime: .persistent, override: true) { _ in
      StubHTTPClient(headlines: ["First", "Second"])
    }
    registrar.bind((any FeedStore).self, lifetime: .persistent, override: true) { _ in
      InMemoryFeedStore()
    }
    registrar.bind(EventLog.self, lifetime: .persistent, override: true) { _ in
      EventLog(channel: "test", echoes: false)
    }
  }
}

let production = ContainerBuilder(NetworkAssembly(), FeedAssembly(), ProfileAssembly())

func testContainer() throws -> Container {
  try production.overriding(with: TestDoubles()).build()
}

@Suite("FeedApp sample")
struct FeedAppTests {
  @Test("The production configuration builds, and every binding can be made")
  func productionGraphIsComplete() throws {
    let container = try production.build()
    let report = try container.verify()  // throws, listing every binding that fails
    #expect(report.skipped.isEmpty)
    #expect(container.warnings.isEmpty)
    #expect(try container.resolve(ProfileScreen.self).feed is FeedService)
  }

  @Test("A refresh goes through the real graph with the test doubles in it")
  func refreshUsesTheDoubles() throws {
    let container = try testContainer()
    let feed = try container.resolve((any FeedServicing).self)

    #expect(try feed.refresh() == ["First", "Second"])
    #expect(try feed.saved() == ["First", "Second"])

    let client = try #require(try container.resolve((any HTTPClient).self) as? StubHTTPClient)
    #expect(client.requested.withLock { $0 } == ["/feed"])
    let store = try #require(try container.resolve((any FeedStore).self) as? InMemoryFeedStore)
    #expect(store.saved.withLock { $0["feed"] } == ["First", "Second"])
    // Analytics is forwarded to EventLog, so overriding EventLog replaced both.
    #expect(try container.resolve((any Analytics).self).events.count == 1)
  }

  @Test(
    "Each test gets its own container from the trait",
    .container { try production.overriding(with: TestDoubles()).build() })
  func traitContainer() throws {
    let container = try #require(Container.current)
    _ = try container.resolve((any FeedServicing).self).refresh()
    let screen = try container.resolve(ProfileScreen.self)
    #expect(try screen.render() == ["guest's feed:", "  • First", "  • Second"])
  }

  @Test("Logging out resets the session; the audit log sees each new one")
  func logoutResetsTheSession() throws {
    let container = try testContainer()
    let audit = try container.resolve((any Analytics).self, tag: AnalyticsTag.audit)
    let first = try container.resolve(ProfileScreen.self).session
    #expect(try container.resolve(ProfileScreen.self).session === first)

    container.reset(.session)

    #expect(try container.resolve(ProfileScreen.self).session !== first)
    #expect(audit.events == ["session opened", "session opened"])
  }

  @Test("The production store writes real files and reads them back")
  func fileStoreRoundTrip() throws {
    let directory = try StorageDirectory.temporary()
    defer { try? directory.remove() }
    let store = FileFeedStore(directory: directory)

    let path = try store.save(["a", "b"], as: "feed")

    #expect(path.hasPrefix(directory.url.path))
    #expect(try store.load("feed") == ["a", "b"])
    #expect(try store.load("missing") == nil)
  }

  @Test("Forgetting `override: true` in a test assembly fails the build, naming both lines")
  func duplicateWithoutOverride() {
    struct Careless: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bind((any HTTPClient).self) { _ in StubHTTPClient(headlines: []) }
      }
    }
    #expect(throws: BuildError.self) {
      try production.adding(Careless()).build()
    }
  }
}

/// Each feature's own test target checks its assembly alone: every dependency is the module's
/// own or a declared requirement, without building the other features.
@Suite("FeedApp modules, each checked alone")
struct FeedAppModuleTests {
  @Test("The feed feature is complete on its own: it requires only the HTTP client")
  func feedAlone() throws {
    #expect(try FeedAssembly().validate().isEmpty)
  }

  @Test("The profile feature is complete on its own: it requires only the feed")
  func profileAlone() throws {
    #expect(try ProfileAssembly().validate().isEmpty)
  }

  @Test("The infrastructure modules are complete on their own")
  func infrastructureAlone() throws {
    try NetworkAssembly().validate()
    try StorageAssembly().validate()
    try AnalyticsAssembly().validate()
  }

  @Test("A feature that forgets a requirement is told which `require` to add")
  func forgottenRequirement() {
    struct Forgetful: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.bind(ProfileScreen.self, to: ProfileScreen.init(session:feed:))
      }
    }
    let error = #expect(throws: BuildError.self) { try Forgetful().validate() }
    let missing = error?.diagnostics.filter { $0.code == .missingDependency } ?? []
    #expect(missing.count == 2)
    #expect(missing.allSatisfy { $0.fixes.first?.contains("registrar.require") == true })
  }

  @Test("FeedService is private to the feed feature: the app resolves FeedServicing")
  func implementationIsPrivate() throws {
    let container = try testContainer()
    #expect(throws: ResolutionError.self) { try container.resolve(FeedService.self) }
    #expect(try container.resolve((any FeedServicing).self) is FeedService)
    let info = try #require(container.bindings.first { $0.key == BindingKey(FeedService.self) })
    #expect(info.isPrivate)
    #expect(info.assembly == FeedAssembly.self)
  }

  @Test("A test of the feed's internals overrides its private FeedService")
  func overridePrivateImplementation() throws {
    struct FeedInternals: Assembly {
      func register(in registrar: inout Registrar) {
        registrar.overriding(FeedAssembly.self) { registrar in
          registrar.bind(FeedService.self, lifetime: .persistent) { resolver in
            FeedService(
              client: StubHTTPClient(headlines: ["stubbed"]), store: InMemoryFeedStore(),
              analytics: try resolver.resolve())
          }
        }
      }
    }
    let container = try production.adding(FeedInternals()).build()
    #expect(try container.resolve((any FeedServicing).self).refresh() == ["stubbed"])
    #expect(try container.resolve(ProfileScreen.self).feed is FeedService)
  }
}
