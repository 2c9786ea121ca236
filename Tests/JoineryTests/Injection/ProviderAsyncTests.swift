import Joinery
import Testing

private final class Database: Sendable {
  let name: String
  init(name: String) { self.name = name }
}
private final class Ticket: Sendable {}
@MainActor private final class Window {}

/// Made synchronously; awaits its async dependency only when it needs it.
private final class ReportScreen: Sendable {
  let database: Provider<Database>
  init(database: Provider<Database>) { self.database = database }
}

/// Made synchronously; could never make its async dependency.
private final class LazyScreen: Sendable {
  let database: Lazy<Database>
  init(database: Lazy<Database>) { self.database = database }
}

@Suite("Providers of async bindings")
struct ProviderAsyncTests {
  @Test("getAsync() awaits an async binding a synchronous consumer holds, with its lifetime")
  func awaitsThroughProvider() async throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bindAsync(Database.self, lifetime: .persistent) { _ in
        await Task.yield()
        return Database(name: "main")
      }
      registrar.bindAsync(Database.self, tag: "archive") { _ in Database(name: "archive") }
      registrar.bind(ReportScreen.self, to: ReportScreen.init(database:))
    }.build()
    let screen = try container.resolve(ReportScreen.self)
    let error = #expect(throws: ResolutionError.self) { try screen.database.get() }
    #expect(error?.code == .asyncBinding)
    #expect(error?.debugDescription.contains("provider.getAsync()") == true)

    let first = try await screen.database.getAsync()
    #expect(first.name == "main")
    #expect(try await screen.database.getAsync() === first, "persistent: one instance")

    let archive = try container.resolve(Provider<Database>.self, tag: "archive")
    #expect(try await archive.getAsync().name == "archive")
    #expect(try await archive.getAsync() !== (try await archive.getAsync()), "ephemeral")
    let fallback = try container.resolve(Provider<Database>.self, tag: "other")
    #expect(try await fallback.getAsync() === first, "an untagged fallback keeps identity")
  }

  @Test("getAsync() of a provider made in a scope resolves there, and refuses once it is closed")
  func scopedProvider() async throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bindAsync(Ticket.self, lifetime: .scoped) { _ in Ticket() }
      registrar.bind(Database.self) { _ in Database(name: "sync") }
    }.build()
    let scope = container.makeScope()
    let provider = try scope.resolve(Provider<Ticket>.self)
    let ticket = try await provider.getAsync()
    #expect(ticket === (try await scope.resolveAsync(Ticket.self)))
    #expect(try await container.resolve(Provider<Database>.self).getAsync().name == "sync")
    try await scope.close()
    let error = await #expect(throws: ResolutionError.self) { try await provider.getAsync() }
    #expect(error?.code == .shutDown)
  }

  @Test("getAsync() after the container is gone throws shutDown")
  func releasedContainer() async throws {
    var container: Container? = try ContainerBuilder().adding { registrar in
      registrar.bindAsync(Database.self) { _ in Database(name: "main") }
    }.build()
    let provider = try container?.resolve(Provider<Database>.self)
    container = nil
    let error = await #expect(throws: ResolutionError.self) { try await provider?.getAsync() }
    #expect(error?.code == .shutDown)
  }

  @Test("A Lazy of an async binding fails build(), in synchronous and async consumers alike")
  func lazyOfAsyncBinding() throws {
    for consumerIsAsync in [false, true] {
      let error = #expect(throws: BuildError.self) {
        try ContainerBuilder().adding { registrar in
          registrar.bindAsync(Database.self, lifetime: .persistent) { _ in
            Database(name: "main")
          }
          if consumerIsAsync {
            registrar.bindAsync(LazyScreen.self, to: LazyScreen.init(database:))
          } else {
            registrar.bind(LazyScreen.self, to: LazyScreen.init(database:))
          }
        }.build()
      }
      let diagnostic = error?.diagnostics.first(where: \.isError)
      #expect(error?.diagnostics.filter(\.isError).count == 1)
      #expect(diagnostic?.code == .asyncDependency)
      #expect(
        diagnostic?.message
          == "LazyScreen takes a Lazy<Database>, but Database's factory is async: a Lazy reads "
          + "synchronously and could never make it.")
      #expect(diagnostic?.fixes.first?.contains("try await provider.getAsync()") == true)
    }
  }

  @Test("getAsync() of a main-actor binding, awaited off the main actor, hops to it")
  func mainActorBinding() async throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bindMainActor(Window.self, lifetime: .persistent) { _ in Window() }
    }.build()
    let provider = try container.resolve(Provider<Window>.self)
    let offMain = try await Task.detached { try await provider.getAsync() }.value
    #expect(offMain === (try await container.resolveAsync(Window.self)))
  }
}
