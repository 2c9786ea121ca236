import Joinery
import Testing

// A server's request-scoped user behind a repository, as a server team declares it.
private final class SignedInUser: Sendable {
  let name: String
  init(name: String) { self.name = name }
}
private final class UserRepository: Sendable {
  let user: SignedInUser
  init(user: SignedInUser) { self.user = user }
}
private protocol Repository: Sendable {}
extension UserRepository: Repository {}
private final class PermissionService: Sendable {
  let repository: UserRepository
  init(repository: UserRepository) { self.repository = repository }
}
private final class AuditLog: Sendable {
  let repository: any Repository
  init(repository: any Repository) { self.repository = repository }
}
private final class Session: Sendable {}
private final class SessionReader: Sendable {
  let session: Session
  init(session: Session) { self.session = session }
}
private final class Settings: Sendable {
  let reader: SessionReader
  init(reader: SessionReader) { self.reader = reader }
}
private final class Preferences: Sendable {
  let reader: SessionReader
  init(reader: SessionReader) { self.reader = reader }
}
private final class SessionWatcher: Sendable {
  let reader: SessionReader
  init(reader: SessionReader) { self.reader = reader }
}
private final class Greeter: Sendable {
  let user: SignedInUser?
  init(user: SignedInUser?) { self.user = user }
}
private final class Handler: Sendable {
  let repository: UserRepository
  init(repository: UserRepository) { self.repository = repository }
}

private func build(_ declare: @escaping @Sendable (inout Registrar) -> Void) throws -> Container {
  try ContainerBuilder().adding(declare).build()
}

private func captives(_ error: BuildError?) -> [Diagnostic] {
  error?.diagnostics.filter { $0.code == .captiveDependency && $0.isError } ?? []
}

@Suite("Captive dependencies through chains")
struct CaptiveChainTests {
  @Test("persistent → ephemeral (no lifetime written) → scoped fails build(), naming the chain")
  func singletonThroughEphemeral() throws {
    let error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser(name: "?") }
        registrar.bind(UserRepository.self, to: UserRepository.init(user:))
        registrar.bind(PermissionService.self, lifetime: .persistent, to: PermissionService.init)
      }
    }
    let found = captives(error)
    #expect(found.count == 1)
    let message = try #require(found.first?.message)
    #expect(message.contains("PermissionService is persistent"))
    #expect(message.contains("through UserRepository"))
    #expect(message.contains("which is scoped"))
    #expect(message.contains("one scope's SignedInUser would serve every scope"))
    // Every link with its lifetime and where it was bound.
    #expect(message.contains("UserRepository (ephemeral, JoineryTests/CaptiveChainTests.swift:"))
    #expect(
      found.first?.bindings.map { "\($0.key.type)" } == [
        "PermissionService", "UserRepository", "SignedInUser",
      ])
  }

  @Test("Two links deep, the chain is named in order")
  func twoLinksDeep() throws {
    let error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser(name: "?") }
        registrar.bind(UserRepository.self, to: UserRepository.init(user:))
        registrar.bind(PermissionService.self, to: PermissionService.init(repository:))
        // Beside the chain, a dependency with nothing captive below it.
        registrar.bind(Session.self, to: Session.init)
        registrar.bind(Handler.self, lifetime: .persistent) {
          (service: PermissionService, session: Session) in
          _ = (service, session)
          return Handler(repository: service.repository)
        }
      }
    }
    let found = captives(error)
    #expect(found.count == 1)
    let message = try #require(found.first?.message)
    #expect(message.contains("Handler is persistent"))
    #expect(message.contains("through PermissionService → UserRepository, made for it"))
    #expect(
      found.first?.bindings.map { "\($0.key.type)" } == [
        "Handler", "PermissionService", "UserRepository", "SignedInUser",
      ])
  }

  @Test("persistent → ephemeral → cached fails build(): the cached instance would survive reset")
  func singletonThroughEphemeralToCached() {
    let error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(Session.self, lifetime: .cached) { Session() }
        registrar.bind(SessionReader.self, to: SessionReader.init(session:))
        registrar.bind(Settings.self, lifetime: .persistent, to: Settings.init(reader:))
      }
    }
    #expect(captives(error).count == 1)
    #expect(captives(error).first?.message.contains("which is cached") == true)
  }

  @Test("Through graph bindings, forwards and optional dependencies too")
  func throughEveryUnsharedKind() {
    // graph
    var error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser(name: "?") }
        registrar.bind(UserRepository.self, lifetime: .graph, to: UserRepository.init(user:))
        registrar.bind(PermissionService.self, lifetime: .cached, to: PermissionService.init)
      }
    }
    #expect(captives(error).contains { $0.isError && $0.message.contains("scoped") })
    // a forward to an ephemeral binding
    error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser(name: "?") }
        registrar.bind(UserRepository.self, to: UserRepository.init(user:))
        registrar.bind((any Repository).self, forwardingTo: UserRepository.self)
        registrar.bind(AuditLog.self, lifetime: .transient, to: AuditLog.init(repository:))
      }
    }
    #expect(captives(error).count == 1)
    // an optional dependency that is bound
    error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser(name: "?") }
        registrar.bind(Greeter.self, lifetime: .persistent, to: Greeter.init(user:))
      }
    }
    #expect(captives(error).count == 1)
  }

  @Test("A chain a scope owns, or an acknowledged one, builds")
  func whatIsFine() throws {
    // Scoped and ephemeral consumers hold request data for the request only.
    _ = try build { registrar in
      registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser(name: "?") }
      registrar.bind(UserRepository.self, lifetime: .scoped, to: UserRepository.init(user:))
      registrar.bind(Handler.self, to: Handler.init(repository:))
    }
    // A shared binding between stops the walk: it is checked as a consumer of its own.
    let error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(SignedInUser.self, lifetime: .scoped) { SignedInUser(name: "?") }
        registrar.bind(UserRepository.self, lifetime: .transient, to: UserRepository.init(user:))
        registrar.bind(PermissionService.self, lifetime: .persistent, to: PermissionService.init)
      }
    }
    // The repository captures the user; the service captures the transient repository; the
    // user is not reported a second time through the transient one.
    #expect(
      captives(error).map { "\($0.key.type)" }.sorted() == ["PermissionService", "UserRepository"])
    // allowCaptive acknowledges the far end of a chain.
    _ = try build { registrar in
      registrar.bind(Session.self, lifetime: .cached) { Session() }
      registrar.bind(SessionReader.self, to: SessionReader.init(session:))
      registrar.bind(Settings.self, lifetime: .persistent, to: Settings.init(reader:))
      registrar.allowCaptive(Settings.self, dependency: Session.self, because: "read once at start")
    }
  }

  @Test("cached → ephemeral → transient is a warning, kept on the container")
  func cachedWarns() throws {
    let container = try build { registrar in
      registrar.bind(Session.self, lifetime: .transient) { Session() }
      registrar.bind(SessionReader.self, to: SessionReader.init(session:))
      registrar.bind(Settings.self, lifetime: .cached, to: Settings.init(reader:))
    }
    let warning = container.warnings.first { $0.code == .captiveDependency }
    #expect(warning?.isError == false)
    #expect(warning?.message.contains("through SessionReader") == true)
  }

  // The check remembers which chains lead to no capture, per consumer lifetime: these two pin
  // that a chain clean for one consumer is still walked for another that captures through it.

  @Test("A chain harmless to a transient consumer is still reported for a persistent one after it")
  func cleanForOneLifetimeOnly() throws {
    let error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(Session.self, lifetime: .transient) { Session() }
        registrar.bind(SessionReader.self, to: SessionReader.init(session:))
        // Declared first: its walk through SessionReader meets no capture.
        registrar.bind(SessionWatcher.self, lifetime: .transient, to: SessionWatcher.init)
        registrar.bind(Settings.self, lifetime: .persistent, to: Settings.init(reader:))
      }
    }
    let found = captives(error)
    #expect(found.map { "\($0.key.type)" } == ["Settings"])
    #expect(found.first?.message.contains("through SessionReader") == true)
  }

  @Test("Every singleton over one chain is reported, not only the first")
  func everySingletonOverOneChain() throws {
    let error = #expect(throws: BuildError.self) {
      try build { registrar in
        registrar.bind(Session.self, lifetime: .transient) { Session() }
        registrar.bind(SessionReader.self, to: SessionReader.init(session:))
        registrar.bind(Settings.self, lifetime: .persistent, to: Settings.init(reader:))
        registrar.bind(Preferences.self, lifetime: .persistent, to: Preferences.init(reader:))
      }
    }
    #expect(Set(captives(error).map { "\($0.key.type)" }) == ["Settings", "Preferences"])
  }
}
