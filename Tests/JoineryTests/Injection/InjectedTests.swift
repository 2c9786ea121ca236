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

// A screen made by the container, whose properties are first read long after, in a "tap".
private final class FeedScreen: Sendable {
  let greeter = Injected<any Greeter>()
  let loud = Injected<any Greeter>(tag: "loud")
}

// A type that reads a property in its initializer: verify() runs it.
private final class EagerReader: Sendable {
  let greeter = Injected<any Greeter>()
  let greeting: String
  init() { greeting = greeter.wrappedValue.greeting }
}

private final class Work: Sendable {}
private final class Handler: Sendable {
  let work = Injected<Work>()
}

@Suite("@Injected remembers where it was made")
struct InjectedMemoryTests {
  @Test("An object the container made reads its properties later, outside any resolution")
  func madeByTheContainer() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Greeter).self) { _ in Fixed(greeting: "bound") }
        registrar.bind((any Greeter).self, tag: "loud") { _ in Fixed(greeting: "BOUND") }
        registrar.bind(FeedScreen.self, lifetime: .persistent) { _ in FeedScreen() }
      }
    ).build()
    let screen = try container.resolve(FeedScreen.self)
    #expect(Container.current == nil)
    // First read now, as in a tap handler: the container that made the screen answers.
    #expect(screen.greeter.wrappedValue.greeting == "bound")
    #expect(try screen.loud.get().greeting == "BOUND")
  }

  @Test("An object another container makes inside a factory reads later from that container")
  func madeByAnotherContainerInsideAFactory() throws {
    let inner = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Greeter).self) { _ in Fixed(greeting: "inner") }
        registrar.bind((any Greeter).self, tag: "loud") { _ in Fixed(greeting: "INNER") }
        registrar.bind(FeedScreen.self) { _ in FeedScreen() }
      }
    ).build()
    let outer = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Greeter).self) { _ in Fixed(greeting: "outer") }
        // A factory of one container that asks another (a per-user container, say).
        registrar.bind(FeedScreen.self, tag: "via inner") { _ in try inner.resolve(FeedScreen.self)
        }
      }
    ).build()
    let screen = try outer.resolve(FeedScreen.self, tag: "via inner")
    #expect(screen.greeter.wrappedValue.greeting == "inner")
    #expect(try screen.loud.get().greeting == "INNER")
  }

  @Test("An object an async factory makes reads later from that factory's container")
  func madeByAnAsyncFactory() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Greeter).self) { _ in Fixed(greeting: "bound") }
        registrar.bind((any Greeter).self, tag: "loud") { _ in Fixed(greeting: "BOUND") }
        registrar.bindAsync(FeedScreen.self) { _ in FeedScreen() }
      }
    ).build()
    let screen = try await container.resolveAsync(FeedScreen.self)
    #expect(Container.current == nil)
    #expect(try screen.greeter.get().greeting == "bound")
    #expect(try screen.loud.get().greeting == "BOUND")
  }

  @Test("An object made inside withCurrent reads later from that container, not the current one")
  func madeInsideWithCurrent() throws {
    let first = try greeterContainer("first")
    let second = try greeterContainer("second")
    let screen = first.withCurrent { Screen() }
    try second.withCurrent { () throws in
      #expect(screen.greeter.greeting == "first")
    }
    #expect(screen.loud.greeting == "FIRST")
  }

  @Test("An object made in a scope's resolution resolves in that scope later")
  func madeInAScope() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Work.self, lifetime: .scoped) { _ in Work() }
        registrar.bind(Handler.self) { _ in Handler() }
      }
    ).build()
    let scope = container.makeScope()
    let handler = try scope.resolve(Handler.self)
    let work = try scope.resolve(Work.self)
    #expect(try handler.work.get() === work)
    try await scope.close()
    let next = container.makeScope()
    let other = try next.resolve(Handler.self)
    #expect(try other.work.get() === (try next.resolve(Work.self)))
    #expect(try other.work.get() !== work)
  }

  @Test("An object an async factory makes in a scope resolves in that scope later")
  func madeByAnAsyncFactoryInAScope() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Work.self, lifetime: .scoped) { _ in Work() }
        registrar.bindAsync(Handler.self) { _ in Handler() }
      }
    ).build()
    let scope = container.makeScope()
    let handler = try await scope.resolveAsync(Handler.self)
    #expect(try handler.work.get() === (try scope.resolve(Work.self)))
    try await scope.close()
  }

  @Test("The container it remembers is held weakly: gone, the read throws shutDown")
  func rememberedWeakly() throws {
    var screen: Screen?
    do {
      let temporary = try greeterContainer("gone")
      screen = temporary.withCurrent { Screen() }
    }
    let error = try #require(throws: ResolutionError.self) { try screen?.$greeter.get() }
    #expect(error.code == .shutDown)
  }

  @Test("Assigning the property replaces the instance, before or after the first read")
  func setter() throws {
    let container = try greeterContainer("real")
    let screen = container.withCurrent { Screen() }
    screen.loud = Fixed(greeting: "mock loud")
    #expect(screen.loud.greeting == "mock loud")
    #expect(screen.greeter.greeting == "real")
    screen.greeter = Fixed(greeting: "mock")
    #expect(screen.greeter.greeting == "mock")
    #expect(try screen.$greeter.get().greeting == "mock")
  }

  @Test("Reads racing an assignment see the resolved or the assigned instance, nothing else")
  func assignmentRace() async throws {
    let container = try greeterContainer("real")
    await Stress.run(
      rounds: 300,
      prepare: { _ in Injected<any Greeter>(from: container) },
      work: { injected, index in
        if index == 0 {
          injected.wrappedValue = Fixed(greeting: "mock")
          return "mock"
        }
        return injected.wrappedValue.greeting
      },
      check: { round, _, seen in
        Set(seen).isSubset(of: ["real", "mock"]) ? nil : "round \(round): \(Set(seen))"
      })
  }

  @Test("After an assignment, reads inside factories on many threads all get the assigned one")
  func assignedReadInsideFactories() async throws {
    // A read inside a factory never waits for the wrapper's lock, which other readers hold
    // for a moment: it must still see the assignment, not resolve the production binding.
    let production = try greeterContainer("real")
    let injected = Injected<any Greeter>(from: production)
    injected.wrappedValue = Fixed(greeting: "mock")
    let readers = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(String.self) { _ in injected.wrappedValue.greeting }
      }
    ).build()
    await Stress.run(
      rounds: 200,
      prepare: { _ in readers },
      work: { container, _ in (try? container.resolve(String.self)) ?? "failed" },
      check: { round, _, seen in
        Set(seen) == ["mock"] ? nil : "round \(round): \(Set(seen))"
      })
    withExtendedLifetime(production) {}
  }

  @Test(
    "A getter that cannot resolve stops with the property's line and what to change",
    .disabled(if: BuildFacts.threadSanitizer, "fork under ThreadSanitizer deadlocks its runtime"))
  func trapMessage() throws {
    let run = try Probe.run("injected-trap-message")
    #expect(run.status != 0)
    #expect(run.output.contains("reading"), "\(run.output)")
    #expect(!run.output.contains("not reached"))
    #expect(run.output.contains("JoineryProbes/main.swift:"), "\(run.output)")
    #expect(run.output.contains("container.withCurrent"), "\(run.output)")
    #expect(run.output.contains("@Injected(from: container)"), "\(run.output)")
  }

  @Test("verify() makes its copy current: a property read in an initializer resolves from it")
  func verifyWithInitializerReads() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Greeter).self) { _ in Fixed(greeting: "verified") }
        registrar.bind(EagerReader.self, lifetime: .persistent) { _ in EagerReader() }
      }
    ).build()
    let report = try container.verify()
    #expect(report.verified.contains(BindingKey(EagerReader.self)))
    #expect(try container.resolve(EagerReader.self).greeting == "verified")
  }

  @Test("verifyAsync() makes its copy current too")
  func verifyAsyncWithInitializerReads() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Greeter).self) { _ in Fixed(greeting: "verified") }
        registrar.bind(EagerReader.self) { _ in EagerReader() }
      }
    ).build()
    let report = try await container.verifyAsync()
    #expect(report.verified.contains(BindingKey(EagerReader.self)))
  }
}

// The Testing article's recipes for a handle on an installed double.
private protocol Network: Sendable { func fetch() }
private final class LiveNetwork: Network { func fetch() {} }
private final class FakeNetwork: Network {
  let count = Locked(0)
  var fetches: Int { count.withLock { $0 } }
  func fetch() { count.withLock { $0 += 1 } }
}
private struct AppAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind((any Network).self, lifetime: .persistent) { _ in LiveNetwork() }
  }
}
private struct MockNetwork: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind((any Network).self, lifetime: .persistent) { _ in FakeNetwork() }
  }
}
private struct NetworkScreen {
  @Injected var network: any Network
  func refresh() throws { network.fetch() }
}

@Suite("A test's handle on its doubles")
struct TestDoubleHandleTests {
  @Test(.container { try ContainerBuilder(AppAssembly()).overriding(with: MockNetwork()).build() })
  func refreshFetchesOnce() throws {
    let network = try #require(try Container.current?.resolve((any Network).self) as? FakeNetwork)
    try NetworkScreen().refresh()
    #expect(network.fetches == 1)
  }

  @Test func refreshFetchesOnceBuilt() throws {
    let network = FakeNetwork()
    let container = try ContainerBuilder(AppAssembly()).overriding { registrar in
      registrar.bind((any Network).self, instance: network)
    }.build()
    try container.withCurrent { try NetworkScreen().refresh() }
    #expect(network.fetches == 1)
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
