import Joinery
import JoineryTesting
import Testing

private protocol Greeter: Sendable { var greeting: String { get } }
private struct Fixed: Greeter { let greeting: String }

private struct Screen {
  @Injected var greeter: any Greeter
  @Injected(tag: "loud") var loud: any Greeter
}

@MainActor
private final class MainScreen {
  @Injected var greeter: any Greeter
}

// In a Sendable class, keep the wrapper as a constant.
private final class SendableScreen: Sendable {
  let greeter = Injected<any Greeter>()
}

private func greeterContainer(_ greeting: String) throws -> Container {
  try ContainerBuilder(
    Bindings { registrar in
      registrar.bind((any Greeter).self) { _ in Fixed(greeting: greeting) }
      registrar.bind((any Greeter).self, tag: "loud") { _ in Fixed(greeting: greeting.uppercased())
      }
    }
  ).build()
}

@Suite("@Injected and the current container")
struct InjectedTests {
  @Test("An @Injected property resolves lazily from the current container, with tags")
  func currentContainer() throws {
    let container = try greeterContainer("hello")
    let screen = Screen()
    try container.withCurrent { () throws in
      #expect(screen.greeter.greeting == "hello")
      #expect(screen.loud.greeting == "HELLO")
      #expect(try screen.$greeter.get().greeting == "hello")
    }
    // Kept after the first read, also outside the scope.
    #expect(screen.greeter.greeting == "hello")
  }

  @Test("An explicit container wins and is held weakly")
  func explicitContainer() throws {
    let container = try greeterContainer("explicit")
    let injected = Injected<any Greeter>(from: container)
    #expect(injected.wrappedValue.greeting == "explicit")
    var orphan: Injected<any Greeter>?
    do {
      let temporary = try greeterContainer("gone")
      orphan = Injected<any Greeter>(from: temporary)
    }
    let error = try #require(throws: ResolutionError.self) { try orphan?.get() }
    #expect(error.code == .shutDown)
  }

  @Test("With no container in scope, the error names the property's file and line")
  func noContainer() throws {
    let screen = SendableScreen()
    let error = try #require(throws: ResolutionError.self) { try screen.greeter.get() }
    #expect(error.code == .noCurrentContainer)
    #expect(error.debugDescription.contains("JoineryTests/InjectedTests.swift:20"))
  }

  @Test("A scoped binding is never kept by an @Injected property, inside a scope's run too")
  func scopedBindingRefused() async throws {
    // The wrapper keeps its first instance: a shared object's property would hand one
    // request's instance to every later request. Scoped instances go through initializers or
    // a Provider instead.
    final class Work: Sendable {}
    let container = try ContainerBuilder(
      Bindings { registrar in registrar.bind(Work.self, lifetime: .scoped) { _ in Work() } }
    ).build()
    let shared = Injected<Work>(from: container)
    try await container.makeScope().run { _ in
      let error = try #require(throws: ResolutionError.self) { try shared.get() }
      #expect(error.code == .scopeRequired)
    }
  }

  @Test("Eight threads reading first at once resolve once")
  func firstReadsResolveOnce() async throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in registrar.bind(Tracked.self) { _ in Tracked(tracker) } }
    ).build()
    await Stress.run(
      rounds: 1_000,
      prepare: { _ in Injected<Tracked>(from: container) },
      work: { injected, _ in ObjectIdentifier(injected.wrappedValue) },
      check: { round, _, ids in Set(ids).count == 1 ? nil : "round \(round): \(Set(ids).count)" })
    #expect(tracker.madeCount == 1_000)
  }

  @Test("Works on the main actor and in child tasks of the scope")
  @MainActor
  func mainActorAndChildTasks() async throws {
    let container = try greeterContainer("main")
    await container.withCurrent {
      #expect(MainScreen().greeter.greeting == "main")
      let fromChild = await Task { Screen().greeter.greeting }.value
      #expect(fromChild == "main")
    }
  }
}

@Suite("The container trait")
struct ContainerTraitTests {
  @Test(
    "200 parallel tests each override the same binding and see only their own",
    .container { try greeterContainer("per-test") },
    arguments: 0..<200)
  func parallelOverrides(index: Int) throws {
    // The trait's container is current; each case builds its own override on top.
    let base = try #require(Container.current)
    #expect(try base.resolve((any Greeter).self).greeting == "per-test")
    let mine = try ContainerBuilder(
      Bindings("test \(index)") { registrar in
        registrar.bind((any Greeter).self) { _ in Fixed(greeting: "mock \(index)") }
      }
    ).build()
    mine.withCurrent {
      #expect(Screen().greeter.greeting == "mock \(index)")
    }
  }
}
