import Joinery
import Testing

// What the synchronous API does for a synchronous binding, it does for an async one: an
// optional request, a stored session, a question about what is made.
private final class Session: Sendable {
  let user: String
  init(user: String) { self.user = user }
}
private final class Analytics: Sendable {}
private final class Checkout: Sendable {
  let analytics: Analytics?
  let session: Session?
  init(analytics: Analytics?, session: Session?) {
    self.analytics = analytics
    self.session = session
  }
}
private final class Unbound: Sendable {}

@Suite("Async bindings at the seams of the synchronous API")
struct AsyncSeamTests {
  static func container(disposed: TestAtomic<Int>? = nil) throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(
          Session.self, lifetime: .cached,
          dispose: { _ in disposed?.add(1, ordering: .releasing) }
        ) { _ in Session(user: "guest") }
        registrar.bindAsync(Analytics.self, tag: "remote") { _ in Analytics() }
        registrar.bindAsync(Checkout.self, to: Checkout.init(analytics:session:))
        registrar.bindAsync(Checkout.self, tag: "pack") { resolver in
          Checkout(
            analytics: try await resolver.resolveAsync(Analytics?.self, tag: "remote"),
            session: try await resolver.resolveAsync(Session?.self))
        }
      }
    ).build()
  }

  @Test("resolveAsync(T?.self) awaits T's async binding; nil only when nothing binds T")
  func optionalOfAsync() async throws {
    let container = try Self.container()
    let session = try await container.resolveAsync(Session?.self)
    #expect(session?.user == "guest")
    #expect(try await container.resolveAsync(Session?.self) === session)
    // Tagged, with the untagged fallback and without it.
    #expect(try await container.resolveAsync(Analytics?.self, tag: "remote") != nil)
    #expect(try await container.resolveAsync(Analytics?.self, tag: "other") == nil)
    #expect(try await container.resolveAsync(Session?.self, tag: "other") === session)
    #expect(try await container.resolveAsync(Unbound?.self) == nil)
    // A synchronous resolve still cannot await it.
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Session?.self) }
    #expect(error?.code == .asyncBinding)
  }

  @Test("An async initializer's optional parameter of an async binding is awaited")
  func autowiredOptionalOfAsync() async throws {
    let container = try Self.container()
    let autowired = try await container.resolveAsync(Checkout.self)
    #expect(autowired.session?.user == "guest")
    #expect(autowired.analytics == nil)  // only a tagged one is bound
    let closure = try await container.resolveAsync(Checkout.self, tag: "pack")
    #expect(closure.session === autowired.session)
    #expect(closure.analytics != nil)
  }

  @Test("store(_:for:) fills an async cached binding until the group is reset")
  func storeIntoAsyncCached() async throws {
    let disposed = TestAtomic<Int>(0)
    let container = try Self.container(disposed: disposed)
    #expect(!container.hasInstance(of: Session.self))
    let signedIn = Session(user: "ann")
    try container.store(signedIn, for: Session.self)
    #expect(container.hasInstance(of: Session.self))
    #expect(try await container.resolveAsync(Session.self) === signedIn)
    #expect(try await container.resolveAsync(Checkout.self).session === signedIn)

    try await container.close(.default)
    #expect(disposed.load(ordering: .acquiring) == 1)
    #expect(!container.hasInstance(of: Session.self))
    let guest = try await container.resolveAsync(Session.self)
    #expect(guest.user == "guest")
    #expect(container.hasInstance(of: Session.self))
    try await container.shutdown()
    #expect(disposed.load(ordering: .acquiring) == 2)
  }
}
