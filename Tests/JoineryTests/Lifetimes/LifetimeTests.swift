import Joinery
import Testing

extension CacheGroup {
  fileprivate static let session = CacheGroup("session")
}

private func container(
  _ lifetime: Lifetime, protocolTyped: Bool, tag: String?, tracker: LifetimeTracker
) throws -> Container {
  try ContainerBuilder(
    Bindings { registrar in
      if protocolTyped {
        registrar.bind((any Service).self, tag: tag, lifetime: .init(lifetime)) { _ in
          ServiceImpl(tracker)
        }
      } else {
        registrar.bind(ServiceImpl.self, tag: tag, lifetime: .init(lifetime)) { _ in
          ServiceImpl(tracker)
        }
      }
    }
  ).buildOrRecord()
}

private func resolve(_ container: Container, protocolTyped: Bool, tag: String?) throws -> AnyObject
{
  switch (protocolTyped, tag) {
  case (true, nil): try container.resolve((any Service).self)
  case (true, let tag?): try container.resolve((any Service).self, tag: tag)
  case (false, nil): try container.resolve(ServiceImpl.self)
  case (false, let tag?): try container.resolve(ServiceImpl.self, tag: tag)
  }
}

@Suite("Lifetimes")
struct LifetimeTests {
  static let all: [Lifetime] = [.persistent, .transient, .ephemeral, .cached, .graph]

  @Test(
    "Two top-level resolves share an instance exactly for the shared lifetimes",
    arguments: all, [false, true])
  func sharing(lifetime: Lifetime, protocolTyped: Bool) throws {
    for tag in [nil, "t"] as [String?] {
      let tracker = LifetimeTracker()
      let container = try container(
        lifetime, protocolTyped: protocolTyped, tag: tag, tracker: tracker)
      let first = try resolve(container, protocolTyped: protocolTyped, tag: tag)
      let second = try resolve(container, protocolTyped: protocolTyped, tag: tag)
      let shared = [Lifetime.persistent, .transient, .cached].contains(lifetime)
      #expect((first === second) == shared, "\(lifetime), tag \(tag ?? "none")")
      #expect(tracker.madeCount == (shared ? 1 : 2))
    }
  }

  @Test(
    "A transient instance is rebuilt after its last outside reference goes",
    arguments: [false, true])
  func transientRebuilds(protocolTyped: Bool) throws {
    for tag in [nil, "t"] as [String?] {
      let tracker = LifetimeTracker()
      let container = try container(
        .transient, protocolTyped: protocolTyped, tag: tag, tracker: tracker)
      var held: AnyObject? = try resolve(container, protocolTyped: protocolTyped, tag: tag)
      let firstID = ObjectIdentifier(try #require(held))
      // Resolves while it is held share it, and give back every reference they hand out.
      var again: [AnyObject] = try (0..<10).map { _ in
        try resolve(container, protocolTyped: protocolTyped, tag: tag)
      }
      #expect(again.allSatisfy { ObjectIdentifier($0) == firstID })
      #expect(tracker.aliveCount == 1)
      again = []
      held = nil
      #expect(tracker.aliveCount == 0, "the container must not keep a transient instance alive")
      let next = try resolve(container, protocolTyped: protocolTyped, tag: tag)
      #expect(tracker.madeCount == 2)
      #expect((next as? any Service)?.serial == 2)
      _ = again
    }
  }

  @Test("Ephemeral instances are never retained by the container")
  func ephemeralNotRetained() throws {
    let tracker = LifetimeTracker()
    let container = try container(.ephemeral, protocolTyped: false, tag: nil, tracker: tracker)
    for _ in 0..<100 { _ = try container.resolve(ServiceImpl.self) }
    #expect(tracker.madeCount == 100)
    #expect(tracker.aliveCount == 0)
  }

  @Test("Transient on a value type fails the build")
  func transientValueTypeAtBuild() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(ValueGreeting.self, lifetime: .transient) { _ in ValueGreeting(text: "x") }
        }
      ).build()
    }
    #expect(error.diagnostics.map(\.code) == [.transientValueType])
  }

  @Test("Transient on a protocol implemented by a struct throws at first creation")
  func transientValueTypeAtCreation() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Greeting).self, lifetime: .transient) { _ in ValueGreeting(text: "x") }
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve((any Greeting).self)
    }
    #expect(error.code == .transientValueType)
    #expect(
      error.debugDescription.contains(
        "The factory returned a ValueGreeting, which is a value type."))
  }

  @Test("A value made for a transient binding inside a graph is reported with the path to it")
  func transientValueTypeNested() throws {
    struct Holder { let greeting: any Greeting }
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Greeting).self, lifetime: .transient) { _ in ValueGreeting(text: "x") }
        registrar.bind(Holder.self) { (greeting: any Greeting) in Holder(greeting: greeting) }
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Holder.self) }
    #expect(error.code == .transientValueType)
    #expect(error.requested == BindingKey((any Greeting).self))
    #expect(
      error.path.map(\.requested) == [BindingKey(Holder.self), BindingKey((any Greeting).self)])
    // Nothing was kept: the next request fails the same way, it does not get a stale instance.
    let again = try #require(throws: ResolutionError.self) { try container.resolve(Holder.self) }
    #expect(again.code == .transientValueType)
  }

  @Test("The graph lifetime shares one instance inside a resolve and makes a new one next time")
  func graphLifetime() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .graph) { _ in ServiceC(tracker) }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
        registrar.bind(ServiceA.self) { resolver in
          ServiceA(b: try resolver.resolve(), c: try resolver.resolve())
        }
      }
    ).buildOrRecord()
    let first = try container.resolve(ServiceA.self)
    let second = try container.resolve(ServiceA.self)
    #expect(first.b.c === first.c)
    #expect(second.b.c === second.c)
    #expect(first.c !== second.c)
    #expect(tracker.madeCount == 2)
  }

  @Test(
    "A resolution with more graph instances than one scope holds shares each, and frees them all",
    arguments: [1, 2, 5, 9, 40], [Lifetime.ephemeral, .graph])
  func manyGraphInstances(count: Int, root: Lifetime) throws {
    // Graph instances are kept on the stack when a graph binding is at the top (up to four),
    // then in chained heap scopes of four; class instances and values of every size.
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        for index in 0..<count {
          registrar.bind(Tracked.self, tag: index, lifetime: .graph) { _ in Tracked(tracker) }
          // A value larger than the inline buffer, shared the same way.
          registrar.bind(LargeValue.self, tag: index, lifetime: .graph) { _ in
            LargeValue(serial: index)
          }
        }
        registrar.bind([ObjectIdentifier].self, lifetime: .init(root)) { resolver in
          var seen: [ObjectIdentifier] = []
          for index in 0..<count {
            let first = try resolver.resolve(Tracked.self, tag: index)
            let again = try resolver.resolve(Tracked.self, tag: index)
            let large = try resolver.resolve(LargeValue.self, tag: index)
            guard first === again, large.serial == index,
              try resolver.resolve(LargeValue.self, tag: index).serial == index
            else { return [] }
            seen.append(ObjectIdentifier(first))
          }
          return seen
        }
      }
    ).buildOrRecord()
    let seen = try container.resolve([ObjectIdentifier].self)
    #expect(seen.count == count)
    #expect(Set(seen).count == count)
    #expect(tracker.madeCount == count)
    #expect(tracker.aliveCount == 0, "the resolution's scope released every instance")
  }

  @Test("Eager persistent bindings are created by build")
  func eager() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent(eager: true)) { _ in ServiceC(tracker) }
      }
    ).buildOrRecord()
    #expect(tracker.madeCount == 1)
    _ = try container.resolve(ServiceC.self)
    #expect(tracker.madeCount == 1)
  }

  @Test("An eager factory that fails makes build fail with its error")
  func eagerFailure() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(ServiceC.self, lifetime: .persistent(eager: true)) { _ in
            throw TestFailure(message: "no config file")
          }
        }
      ).build()
    }
    let finding = try #require(error.diagnostics.first)
    #expect(finding.code == .eagerCreationFailed)
    #expect(finding.message.contains("no config file"))
  }
}

@Suite("Lifetime values")
struct LifetimeValueTests {
  @Test("Lifetimes compare by kind and parameters, however they were spelled")
  func equality() {
    #expect(Lifetime.persistent(eager: false) == .persistent)
    #expect(Lifetime.persistent(eager: true) != .persistent)
    #expect(Lifetime.persistent(eager: true) == .persistent(eager: true))
    #expect(Lifetime.cached(in: .default) == .cached)
    #expect(Lifetime.cached(in: .session) != .cached)
    #expect(Lifetime.cached(in: .session) == .cached(in: CacheGroup("session")))
    #expect(Lifetime.graph != .ephemeral)
    let all: [Lifetime] = [
      .persistent, .persistent(eager: true), .transient, .ephemeral, .cached,
      .cached(in: .session), .graph, .scoped,
    ]
    // Equal values hash alike: a set keeps each distinct lifetime once.
    #expect(Set(all + all + [.persistent(eager: false), .cached(in: .default)]).count == all.count)
  }

  @Test("A lifetime describes itself as it is written")
  func descriptions() {
    let written: [(Lifetime, String)] = [
      (.persistent, "persistent"), (.persistent(eager: true), "persistent(eager)"),
      (.transient, "transient"), (.ephemeral, "ephemeral"), (.cached, "cached"),
      (.cached(in: .session), "cached(session)"), (.graph, "graph"), (.scoped, "scoped"),
    ]
    for (lifetime, text) in written { #expect(lifetime.description == text) }
  }

  @Test("A container's bindings can be filtered by lifetime")
  func filterByLifetime() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Int.self, lifetime: .persistent) { _ in 1 }
        registrar.bind(String.self, lifetime: .cached(in: .session)) { _ in "s" }
        registrar.bind(Double.self) { _ in 2 }
      }
    ).buildOrRecord()
    let persistent = container.bindings.filter { $0.lifetime == .persistent }
    #expect(persistent.map { "\($0.key.type)" } == ["Int"])
    let session = container.bindings.filter { $0.lifetime == .cached(in: .session) }
    #expect(session.map { "\($0.key.type)" } == ["String"])
  }
}

@Suite("Cached lifetime and reset")
struct CachedLifetimeTests {
  private func makeContainer(_ tracker: LifetimeTracker) throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Tracked.self, lifetime: .cached(in: .session)) { _ in Tracked(tracker) }
        registrar.bind(Tracked.self, tag: "default", lifetime: .cached) { _ in Tracked(tracker) }
        registrar.bind(Tracked.self, tag: "persistent", lifetime: .persistent) { _ in
          Tracked(tracker)
        }
      }
    ).buildOrRecord()
  }

  @Test("Reset drops the group's instances only; caching works after it")
  func resetGroup() throws {
    let tracker = LifetimeTracker()
    let container = try makeContainer(tracker)
    let session = try container.resolve(Tracked.self)
    let other = try container.resolve(Tracked.self, tag: "default")
    let persistent = try container.resolve(Tracked.self, tag: "persistent")
    #expect(try container.resolve(Tracked.self) === session)

    container.reset(.session)
    let renewed = try container.resolve(Tracked.self)
    #expect(renewed !== session)
    #expect(try container.resolve(Tracked.self) === renewed)
    #expect(try container.resolve(Tracked.self, tag: "default") === other)
    #expect(try container.resolve(Tracked.self, tag: "persistent") === persistent)

    container.reset()
    #expect(try container.resolve(Tracked.self, tag: "default") !== other)
    #expect(try container.resolve(Tracked.self, tag: "persistent") === persistent)
  }

  @Test("After a reset the old instance can deallocate")
  func resetReleases() throws {
    let tracker = LifetimeTracker()
    let container = try makeContainer(tracker)
    _ = try container.resolve(Tracked.self)
    #expect(tracker.aliveCount == 1)
    container.reset(.session)
    #expect(tracker.aliveCount == 0)
  }

  @Test("A reset disposes what it dropped, so logging in and out does not pile up sessions")
  func resetDisposes() async throws {
    for async in [false, true] {
      let tracker = LifetimeTracker()
      let disposed = TestAtomic<Int>(0)
      let container = try ContainerBuilder(
        Bindings { registrar in
          let dispose: @Sendable (Tracked) async throws -> Void = { _ in
            disposed.add(1, ordering: .releasing)
          }
          if async {
            registrar.bindAsync(Tracked.self, lifetime: .cached(in: .session), dispose: dispose) {
              _ in Tracked(tracker)
            }
          } else {
            registrar.bind(Tracked.self, lifetime: .cached(in: .session), dispose: dispose) {
              _ in Tracked(tracker)
            }
          }
        }
      ).build()
      for cycle in 1...20 {
        _ = try await container.resolveAsync(Tracked.self)
        container.reset(.session)
        // Disposed in a task of its own, and then let go.
        #expect(try await eventually(disposed, reaches: cycle) == cycle, "async: \(async)")
      }
      #expect(tracker.madeCount == 20)
      // The disposal's task lets the last instance go just after its disposer returns.
      #expect(try await eventually(tracker.alive, fallsTo: 0) == 0, "async: \(async)")
      // Shutdown disposes the current session only: the others were disposed once.
      _ = try await container.resolveAsync(Tracked.self)
      try await container.shutdown()
      #expect(disposed.load(ordering: .acquiring) == 21)
    }
  }

  @Test("shutdown() waits for the disposals a reset started")
  func shutdownAwaitsResetDisposal() async throws {
    let disposed = TestAtomic<Int>(0)
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(
          Tracked.self, lifetime: .cached,
          dispose: { _ in
            try await Task.sleep(milliseconds: 20)
            disposed.add(1, ordering: .releasing)
          }
        ) { _ in Tracked(LifetimeTracker()) }
      }
    ).build()
    _ = try container.resolve(Tracked.self)
    container.reset()
    try await container.shutdown()
    #expect(disposed.load(ordering: .acquiring) == 1)
  }

  @Test("A stored instance is returned until the group is reset")
  func store() throws {
    let tracker = LifetimeTracker()
    let container = try makeContainer(tracker)
    let loggedIn = Tracked(tracker)
    try container.store(loggedIn, for: Tracked.self)
    #expect(try container.resolve(Tracked.self) === loggedIn)
    container.reset(.session)
    #expect(try container.resolve(Tracked.self) !== loggedIn)
  }

  @Test("Storing into a binding that is not cached throws")
  func storeNotCached() throws {
    let tracker = LifetimeTracker()
    let container = try makeContainer(tracker)
    let error = try #require(throws: ResolutionError.self) {
      try container.store(Tracked(tracker), for: Tracked.self, tag: "persistent")
    }
    #expect(error.code == .notCached)
    let missing = try #require(throws: ResolutionError.self) {
      try container.store(1, for: Int.self)
    }
    #expect(missing.code == .missingBinding)
  }
}

/// A value of 80 bytes: larger than the inline space of a graph scope's slot.
struct LargeValue: Sendable {
  let serial: Int
  let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
}

/// Sharing needs `Sendable` (the compiler checks it: Tests/CompileFailures); what is never
/// shared between threads does not.
@Suite("Sendable only where shared")
struct SendableLifetimeTests {
  final class Tally {
    var count = 0
  }

  @Test("A type that is not Sendable binds ephemeral and graph, by closure or initializer")
  func unsharedLifetimesTakeAnyType() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Tally.self, to: Tally.init)
        registrar.bind(Tally.self, tag: "graph", lifetime: .graph) { _ in Tally() }
      }
    ).build()
    let first = try container.resolve(Tally.self)
    first.count += 1
    #expect(try container.resolve(Tally.self).count == 0)
    #expect(try container.resolve(Tally.self, tag: "graph").count == 0)
  }

  @Test("A lifetime chosen at run time is open to Sendable types")
  func runtimeLifetime() throws {
    let chosen: Lifetime = .persistent
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .init(chosen)) { _ in ServiceC(LifetimeTracker()) }
      }
    ).build()
    #expect(try container.resolve(ServiceC.self) === container.resolve(ServiceC.self))
  }
}
