import Joinery
import Testing

private struct RequestInfo: Sendable {
  let user: String?
}

private struct Unauthorized: Error, Equatable {}
private struct Broken: Error {}

private final class SignedInUser: Sendable {
  let name: String
  init(info: RequestInfo) throws {
    guard let user = info.user else { throw Unauthorized() }
    name = user
  }
}

private final class UnitOfWork: Sendable {
  let committed = Locked(false)
  func commit() { committed.withLock { $0 = true } }
}

private final class Handler: Sendable {
  let user: SignedInUser
  let work: UnitOfWork
  init(user: SignedInUser, work: UnitOfWork) {
    self.user = user
    self.work = work
  }
}

private func container(
  journal: Locked<[String]>, failingDisposal: Bool = false
) throws -> Container {
  try ContainerBuilder().adding { registrar in
    registrar.bindScopeValue(RequestInfo.self)
    registrar.bind(SignedInUser.self, lifetime: .scoped, to: SignedInUser.init(info:))
    registrar.bind(
      UnitOfWork.self, lifetime: .scoped,
      dispose: { work in
        journal.withLock { $0.append(work.committed.withLock { $0 } ? "done" : "rolled back") }
        if failingDisposal { throw Broken() }
      }, to: UnitOfWork.init)
    registrar.bind(Handler.self, to: Handler.init(user:work:))
  }.build()
}

@Suite("Scope.run: a unit of work in a scope of its own, and a factory's own error")
struct ScopeRunTests {
  @Test("The work's result is returned and its scope closed: the unit of work is disposed")
  func success() async throws {
    let journal = Locked<[String]>([])
    let container = try container(journal: journal)
    let kept = Locked<Scope?>(nil)
    let name = try await container.makeScope { $0.provide(RequestInfo(user: "ada")) }.run { scope in
      kept.withLock { $0 = scope }
      let handler = try scope.resolve(Handler.self)
      handler.work.commit()
      return handler.user.name
    }
    #expect(name == "ada")
    #expect(journal.withLock { $0 } == ["done"])
    let scope = try #require(kept.withLock { $0 })
    let error = #expect(throws: ResolutionError.self) { try scope.resolve(Handler.self) }
    #expect(error?.code == .shutDown)
  }

  @Test("A factory's domain error reaches the caller as itself; the scope still closes")
  func domainError() async throws {
    let journal = Locked<[String]>([])
    let container = try container(journal: journal)
    do {
      _ = try await container.makeScope { $0.provide(RequestInfo(user: nil)) }.run { scope in
        _ = try scope.resolve(UnitOfWork.self)
        return try scope.resolve(Handler.self)
      }
      Issue.record("expected the resolve to fail")
    } catch let error as ResolutionError {
      #expect(error.code == .factoryFailed)
      #expect(error.underlyingError as? Unauthorized == Unauthorized())
      #expect(error.underlyingError as? Broken == nil)
      #expect(error.path.map { "\($0.requested.type)" } == ["Handler", "SignedInUser"])
    }
    #expect(journal.withLock { $0 } == ["rolled back"])
  }

  @Test("The work's own error is thrown unchanged, after the scope closed")
  func workError() async throws {
    let journal = Locked<[String]>([])
    let container = try container(journal: journal, failingDisposal: true)
    await #expect(throws: Unauthorized.self) {
      try await container.makeScope { $0.provide(RequestInfo(user: "ada")) }.run { scope in
        _ = try scope.resolve(UnitOfWork.self)
        throw Unauthorized()
      }
    }
    #expect(journal.withLock { $0 } == ["rolled back"])
  }

  @Test("When the work succeeds, a disposer's failure is thrown")
  func disposalFailure() async throws {
    let journal = Locked<[String]>([])
    let container = try container(journal: journal, failingDisposal: true)
    let error = await #expect(throws: DisposalError.self) {
      try await container.makeScope { $0.provide(RequestInfo(user: "ada")) }.run { scope in
        try scope.resolve(UnitOfWork.self).commit()
      }
    }
    #expect(error?.failures.map(\.key) == [BindingKey(UnitOfWork.self)])
  }
}
