import Joinery
import Testing

// Every way to declare a binding takes the same options under the same labels: `metadata:` on
// all of them, `dispose:` on every form whose lifetime may keep an instance. Moving a binding
// from one form to another (`bind` to `contribute`, sync to main actor) keeps its options.

private struct Tagline: Sendable, Equatable { let text: String }
private final class Socket: Sendable {}
private protocol Channel: Sendable {}
private final class SocketChannel: Channel {
  let socket: Socket
  init(socket: Socket) { self.socket = socket }
}
private final class Owner: Sendable {}
private final class Download: Sendable {
  let url: String
  init(url: String) { self.url = url }
}
@MainActor private final class Screen {}
private protocol Plugin: AnyObject, Sendable {}
private final class Counter: Plugin {}

@Suite("Declare options: the same options on every form")
struct DeclareOptionsTests {
  @Test("metadata: on instance, weak-instance, forwarding and argument bindings")
  func metadataOnEveryForm() throws {
    let owner = Owner()
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Socket.self, metadata: Tagline(text: "instance"), instance: Socket())
      registrar.bind(
        Owner.self, metadata: Tagline(text: "weak"), weakInstance: owner)
      registrar.bind(
        SocketChannel.self, lifetime: .persistent, to: SocketChannel.init(socket:))
      registrar.bind(
        (any Channel).self, forwardingTo: SocketChannel.self,
        metadata: Tagline(text: "forward"))
      registrar.bind(Download.self, metadata: Tagline(text: "one argument")) {
        (_, url: String) in Download(url: url)
      }
      registrar.bind(Download.self, metadata: Tagline(text: "two arguments")) {
        (_, url: String, _: Int) in Download(url: url)
      }
      registrar.bindAsync(Download.self, metadata: Tagline(text: "async argument")) {
        (_, url: Int) in Download(url: "\(url)")
      }
    }.build()

    func tagline(_ type: Any.Type, arguments: Any.Type? = nil) -> String? {
      let key = BindingKey(type, argumentTypes: arguments)
      let info = container.bindings.first { $0.key == key }
      return (info?.metadata as? Tagline)?.text
    }
    #expect(tagline(Socket.self) == "instance")
    #expect(tagline(Owner.self) == "weak")
    #expect(tagline((any Channel).self) == "forward")
    #expect(tagline(Download.self, arguments: String.self) == "one argument")
    #expect(tagline(Download.self, arguments: (String, Int).self) == "two arguments")
    #expect(tagline(Download.self, arguments: Int.self) == "async argument")
    // Found by metadata among the bindings, a forward resolves through its key's tag.
    let forward = try #require(
      container.bindings.first { ($0.metadata as? Tagline)?.text == "forward" })
    #expect(forward.key == BindingKey((any Channel).self))
    _ = owner
  }

  @Test("dispose: on contributions, sync and async, runs at shutdown like a binding's")
  func disposeOnContributions() async throws {
    let journal = Journal()
    let container = try await ContainerBuilder().adding { registrar in
      registrar.contribute(
        (any Plugin).self, lifetime: .persistent, dispose: { _ in journal.note("closure") }
      ) { _ in Counter() }
      registrar.contribute(
        (any Plugin).self, lifetime: .persistent, dispose: { _ in journal.note("autowired") },
        to: Counter.init)
      registrar.contributeAsync(
        (any Plugin).self, lifetime: .persistent, dispose: { _ in journal.note("async") }
      ) { _ in Counter() }
    }.buildAsync()
    #expect(try await container.resolveAllAsync((any Plugin).self).count == 3)
    try await container.shutdown()
    // Newest instance first; all three, each once.
    #expect(journal.all.sorted() == ["async", "autowired", "closure"])
  }

  @Test("dispose: on a contribution that was never made does not run")
  func disposeNeedsAnInstance() async throws {
    let journal = Journal()
    let container = try ContainerBuilder().adding { registrar in
      registrar.contribute(
        (any Plugin).self, lifetime: .persistent, dispose: { _ in journal.note("never") }
      ) { _ in Counter() }
    }.build()
    try await container.shutdown()
    #expect(journal.all.isEmpty)
  }

  @Test("dispose: on a main-actor binding runs at shutdown")
  @MainActor
  func disposeOnMainActorBindings() async throws {
    let journal = Journal()
    let container = try ContainerBuilder().adding { registrar in
      registrar.bindMainActor(
        Screen.self, lifetime: .persistent, dispose: { _ in journal.note("screen") }
      ) { _ in Screen() }
    }.build()
    let first = try container.resolve(Screen.self)
    #expect(try container.resolve(Screen.self) === first)
    try await container.shutdown()
    #expect(journal.all == ["screen"])
  }

  @Test("dispose: on scoped contributions runs when their scope closes, per scope")
  func disposeOnScopedContributions() async throws {
    let journal = Journal()
    let container = try ContainerBuilder().adding { registrar in
      registrar.contribute(
        (any Plugin).self, lifetime: .scoped, dispose: { _ in journal.note("scoped") },
        to: Counter.init)
      registrar.contributeAsync(
        (any Plugin).self, lifetime: .scoped, dispose: { _ in journal.note("scoped async") }
      ) { _ in Counter() }
    }.build()
    let first = container.makeScope()
    let second = container.makeScope()
    let one = try await first.resolveAllAsync((any Plugin).self)
    #expect(
      try await first.resolveAllAsync((any Plugin).self).map(ObjectIdentifier.init)
        == one.map(ObjectIdentifier.init))
    _ = try await second.resolveAllAsync((any Plugin).self)
    try await first.close()
    #expect(journal.all.sorted() == ["scoped", "scoped async"])
    try await second.close()
    #expect(journal.all.count == 4)
    try await container.shutdown()
    #expect(journal.all.count == 4)
  }

  @Test("dispose: on cached contributions runs when their group is closed, and a new one is made")
  func disposeOnCachedContributions() async throws {
    let journal = Journal()
    let container = try ContainerBuilder().adding { registrar in
      registrar.contribute(
        (any Plugin).self, lifetime: .cached, dispose: { _ in journal.note("cached") }
      ) { _ in Counter() }
    }.build()
    let before = try container.resolveAll((any Plugin).self)
    try await container.close(.default)
    #expect(journal.all == ["cached"])
    let after = try container.resolveAll((any Plugin).self)
    #expect(ObjectIdentifier(before[0]) != ObjectIdentifier(after[0]))
    try await container.shutdown()
    #expect(journal.all == ["cached", "cached"])
  }

  @Test("dispose: on a contribution that keeps no instance fails the build, as on a binding")
  func disposeNeedsAKeepingLifetime() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.contribute((any Plugin).self, dispose: { _ in }) { _ in Counter() }
        registrar.bindMainActor(Screen.self, dispose: { _ in }) { _ in Screen() }
      }.build()
    }
    let messages = error.diagnostics.map(\.message)
    #expect(messages.count == 2)
    #expect(messages.allSatisfy { $0.contains("declares dispose:, but it is ephemeral") })
  }
}
