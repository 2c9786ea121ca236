import Joinery
import Testing

private final class Inbox: Sendable {
  let messages: Provider<Tracked>
  init(messages: Provider<Tracked>) { self.messages = messages }
}

private final class Settings: Sendable {
  let storage: Lazy<Tracked>
  init(storage: Lazy<Tracked>) { self.storage = storage }
}

// Two services that need each other, one through a Provider: no cycle.
private final class Parent: Sendable {
  let child: Child
  init(child: Child) { self.child = child }
}
private final class Child: Sendable {
  let parent: Provider<Parent>
  init(parent: Provider<Parent>) { self.parent = parent }
}

@Suite("Provider and Lazy")
struct ProviderTests {
  @Test("A Provider resolves on each call, with the binding's lifetime, without registration")
  func provider() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Tracked.self) { _ in Tracked(tracker) }
        registrar.bind(Inbox.self, lifetime: .persistent, to: Inbox.init(messages:))
      }
    ).buildOrRecord()
    let inbox = try container.resolve(Inbox.self)
    #expect(tracker.madeCount == 0, "nothing is made before the first call")
    let first = try inbox.messages.get()
    let second = try inbox.messages.get()
    #expect(first !== second)
    let provider = try container.resolve(Provider<Tracked>.self)
    _ = try provider.get()
    #expect(tracker.madeCount == 3)
  }

  @Test("A Lazy resolves once, on first access, also when 8 threads ask first at once")
  func lazy() async throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Tracked.self) { _ in Tracked(tracker) }
        registrar.bind(Settings.self, to: Settings.init(storage:))
      }
    ).buildOrRecord()
    await Stress.run(
      rounds: 1_000,
      prepare: { _ in try container.resolve(Settings.self) },
      work: { settings, _ in ObjectIdentifier(try settings.storage.get()) },
      check: { round, _, ids in
        Set(ids).count == 1 ? nil : "round \(round): \(Set(ids).count) instances"
      })
    #expect(tracker.madeCount == 1_000)
  }

  @Test("A Provider breaks a cycle: build accepts it and both sides resolve")
  func breaksCycles() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Parent.self, lifetime: .persistent, to: Parent.init(child:))
        registrar.bind(Child.self, lifetime: .persistent, to: Child.init(parent:))
      }
    ).buildOrRecord()
    let parent = try container.resolve(Parent.self)
    #expect(try parent.child.parent.get() === parent)
  }

  @Test("A Provider of an unbound type is reported at build like any missing dependency")
  func missingProvided() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in registrar.bind(Inbox.self, to: Inbox.init(messages:)) }
      ).build()
    }
    #expect(error.diagnostics.map(\.message) == ["Inbox depends on Tracked, which is not bound."])
  }

  @Test("A Provider that is itself bound is validated as that binding, as it resolves")
  func boundProvider() throws {
    // `Provider<Tracked>` under "inbox" is a binding of its own, handing out the provider of
    // Tracked under "stored"; nothing binds Tracked under "inbox".
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Tracked.self, tag: "stored", lifetime: .persistent) { _ in
          Tracked(tracker)
        }
        registrar.bind(Provider<Tracked>.self, tag: "inbox") { resolver in
          try resolver.resolve(Provider<Tracked>.self, tag: "stored")
        }
        registrar.bind(Inbox.self, to: Inbox.init(messages:), dependencies: .tagged("inbox"))
      }
    ).buildOrRecord()
    let inbox = try container.resolve(Inbox.self)
    #expect(try inbox.messages.get() === (try container.resolve(Tracked.self, tag: "stored")))
  }

  @Test("Providers and Lazies hold their container weakly and report when it is gone")
  func weakContainer() throws {
    let tracker = LifetimeTracker()
    weak var weakContainer: Container?
    var inbox: Inbox?
    do {
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Tracked.self) { _ in Tracked(tracker) }
          registrar.bind(Inbox.self, lifetime: .persistent, to: Inbox.init(messages:))
        }
      ).buildOrRecord()
      weakContainer = container
      inbox = try container.resolve(Inbox.self)
    }
    #expect(weakContainer == nil, "the Provider inside a persistent instance did not keep it")
    let error = try #require(throws: ResolutionError.self) { try inbox?.messages.get() }
    #expect(error.code == .shutDown)
  }
}
