import Joinery
import JoineryTesting
import Testing

private final class UnitOfWork: Sendable {}
private final class Clock: Sendable {}

/// A request handler as an app writes one: its collaborators are @Injected.
private struct Handler {
  @Injected var work: UnitOfWork
  @Injected(tag: "audit") var audit: UnitOfWork
  @Injected var clock: Clock
}

private func requestContainer() throws -> Container {
  try ContainerBuilder(
    Bindings { registrar in
      registrar.bind(UnitOfWork.self, lifetime: .scoped) { _ in UnitOfWork() }
      registrar.bind(UnitOfWork.self, tag: "audit", lifetime: .scoped) { _ in UnitOfWork() }
      registrar.bind(Clock.self, lifetime: .persistent) { _ in Clock() }
    }
  ).build()
}

@MainActor private final class Banner {}

/// A main-actor screen model: its @Injected scoped banner is read on the main actor.
@MainActor private struct Screen {
  @Injected var banner: Banner
}

@Suite("@Injected inside a scope's run")
struct InjectedInScopeTests {
  @Test(
    "Concurrency article: a scoped @Injected property is the running scope's instance, tagged too")
  func scopedInstance() async throws {
    let container = try requestContainer()
    let scope = container.makeScope()
    let (work, audit, expected, expectedAudit) = try await scope.run { scope in
      let handler = Handler()
      return (
        handler.work, handler.audit, try scope.resolve(UnitOfWork.self),
        try scope.resolve(UnitOfWork.self, tag: "audit")
      )
    }
    #expect(work === expected)
    #expect(audit === expectedAudit)
    #expect(work !== audit)
  }

  @Test("Through Container.current and an explicit container alike; other lifetimes unchanged")
  func eachWayOfNamingTheContainer() async throws {
    let container = try requestContainer()
    let scope = container.makeScope()
    try await scope.run { scope in
      let expected = try scope.resolve(UnitOfWork.self)
      try container.withCurrent { () throws in
        #expect(try Handler().$work.get() === expected)
      }
      #expect(try Injected<UnitOfWork>(from: container).get() === expected)
      #expect(try Handler().$clock.get() === container.resolve(Clock.self))
    }
  }

  @Test("Concurrent scopes each get their own instance, in their child tasks too")
  func concurrentScopes() async throws {
    let container = try requestContainer()
    for _ in 0..<50 {
      let pairs = try await withThrowingTaskGroup(of: (UnitOfWork, UnitOfWork).self) { group in
        for _ in 0..<8 {
          group.addTask {
            try await container.makeScope().run { scope in
              let fromChild = try await Task { try Handler().$work.get() }.value
              #expect(try Handler().$work.get() === fromChild)
              return (fromChild, try scope.resolve(UnitOfWork.self))
            }
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(pairs.allSatisfy { $0.0 === $0.1 })
      #expect(Set(pairs.map { ObjectIdentifier($0.0) }).count == 8)
    }
  }

  @Test("On the main actor, a main-actor scoped binding read through @Injected is the scope's")
  @MainActor
  func mainActorScoped() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindMainActor(Banner.self, lifetime: .scoped) { _ in Banner() }
      }
    ).build()
    let first = container.makeScope()
    let second = container.makeScope()
    let (a, b) = try await first.run { scope in
      (try Screen().$banner.get(), try scope.resolve(Banner.self))
    }
    let c = try await second.run { _ in try Screen().$banner.get() }
    #expect(a === b)
    #expect(a !== c)
  }

  @Test("Another container made current inside the run is not resolved in the scope")
  func otherContainer() async throws {
    let container = try requestContainer()
    let other = try requestContainer()
    try await container.makeScope().run { _ in
      let error = try #require(throws: ResolutionError.self) {
        try other.withCurrent { () throws in try Handler().$work.get() }
      }
      #expect(error.code == .scopeRequired)
      #expect(
        try other.withCurrent { () throws in try Handler().$clock.get() }
          === other.resolve(Clock.self))
    }
  }

  @Test("Outside a run, and in a task that outlives it, a scoped property throws scopeRequired")
  func outsideTheRun() async throws {
    let container = try requestContainer()
    let error = try #require(throws: ResolutionError.self) {
      try container.withCurrent { () throws in try Handler().$work.get() }
    }
    #expect(error.code == .scopeRequired)
    #expect(String(reflecting: error).contains("scope.run { … }"))

    // A task the run leaves behind still has the scope's container, not the closed scope.
    let (gate, open) = AsyncStream.makeStream(of: Void.self)
    let leftover = try await container.makeScope().run { _ in
      Task { () async -> (Clock?, Result<UnitOfWork, ResolutionError>) in
        for await _ in gate { break }
        let clock = try? Handler().$clock.get()
        return (clock, Result { () throws(ResolutionError) in try Handler().$work.get() })
      }
    }
    open.yield()
    let (clock, work) = await leftover.value
    #expect(clock != nil)
    let late = try #require(throws: ResolutionError.self) { try work.get() }
    #expect(late.code == .scopeRequired)
  }

  @Test("With neither a container nor a scope, the error says where to read the property")
  func noContainer() throws {
    let error = try #require(throws: ResolutionError.self) { try Handler().$clock.get() }
    #expect(error.code == .noCurrentContainer)
    #expect(String(reflecting: error).contains("scope.run { … }"))
  }
}
