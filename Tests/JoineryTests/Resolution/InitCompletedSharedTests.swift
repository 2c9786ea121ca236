import Foundation
import Joinery
import Testing

// `initCompleted` on the shared lifetimes: the step runs before any other thread can see the
// instance, and a step that throws leaves nothing published.

/// A session whose observer is filled by its step; the observer points back to the session.
private final class Session: @unchecked Sendable {
  let serial: Int
  var observer: Observer?
  private let lock = NSLock()
  private var _completed = false
  var completed: Bool {
    get { lock.withLock { _completed } }
    set { lock.withLock { _completed = newValue } }
  }
  init(serial: Int) { self.serial = serial }
}

private final class Observer: Sendable {
  weak let session: Session?
  init(session: Session) { self.session = session }
}

/// Resolves `Session` the way its lifetime asks: in `scope` when scoped.
private func session(_ container: Container, _ scope: Scope, _ lifetime: Lifetime) throws
  -> Session
{
  lifetime == .scoped ? try scope.resolve(Session.self) : try container.resolve(Session.self)
}

private let sharedLifetimes: [Lifetime] = [.persistent, .cached, .scoped, .transient]

@Suite("initCompleted on shared lifetimes: published only once its step ran")
struct InitCompletedSharedTests {
  @Test(
    "The back-reference pattern: the step's observer gets the session being completed",
    arguments: sharedLifetimes)
  func backReference(lifetime: Lifetime) throws {
    let made = TestAtomic<Int>(0)
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Session.self, lifetime: .init(lifetime)) {
        Session(serial: made.add(1, ordering: .relaxed).newValue)
      }
      registrar.bind(Observer.self) { resolver in
        Observer(session: try resolver.resolve(Session.self))
      }
      registrar.initCompleted(Session.self) { resolver, session in
        session.observer = try resolver.resolve(Observer.self)
      }
    }.build()
    let scope = container.makeScope()
    let first = try session(container, scope, lifetime)
    #expect(first.observer?.session === first)
    // Shared: the next request is served the same, completed instance.
    #expect(try session(container, scope, lifetime) === first)
    #expect(made.load(ordering: .relaxed) == 1)
    if lifetime == .cached {
      container.reset()
      let next = try session(container, scope, lifetime)
      #expect(next !== first && next.observer?.session === next)
    }
  }

  @Test(
    "A step that throws publishes nothing: the next request makes the instance again and runs its step",
    arguments: sharedLifetimes)
  func throwingStepPublishesNothing(lifetime: Lifetime) throws {
    struct Refused: Error {}
    let made = TestAtomic<Int>(0)
    let refusals = TestAtomic<Int>(2)
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Session.self, lifetime: .init(lifetime)) {
        Session(serial: made.add(1, ordering: .relaxed).newValue)
      }
      registrar.initCompleted(Session.self) { _, session in
        if refusals.subtract(1, ordering: .relaxed).newValue >= 0 { throw Refused() }
        session.completed = true
      }
    }.build()
    let scope = container.makeScope()
    for _ in 0..<2 {
      let error = #expect(throws: ResolutionError.self) {
        try session(container, scope, lifetime)
      }
      #expect(error?.underlyingError is Refused)
      #expect(!container.hasInstance(of: Session.self) || lifetime == .scoped)
      #expect(scope.hasInstance(of: Session.self) == false)
    }
    let completed = try session(container, scope, lifetime)
    #expect(completed.completed)
    #expect(completed.serial == 3)
    #expect(try session(container, scope, lifetime) === completed)
    #expect(made.load(ordering: .relaxed) == 3)
  }

  @Test(
    "Another thread never sees the instance before its step has run",
    arguments: sharedLifetimes)
  func noEarlyReader(lifetime: Lifetime) async throws {
    let stepStarted = DispatchSemaphore(value: 0)
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Session.self, lifetime: .init(lifetime)) { Session(serial: 1) }
      registrar.initCompleted(Session.self) { _, session in
        stepStarted.signal()
        // Long enough for the other thread to ask while the step runs.
        Thread.sleep(forTimeInterval: 0.05)
        session.completed = true
      }
    }.build()
    let scope = container.makeScope()
    let early = Locked<(completed: Bool, same: Bool)?>(nil)
    let first = Locked<Session?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      first.withLock { $0 = try? session(container, scope, lifetime) }
      done.signal()
    }.start()
    stepStarted.wait()
    let seen = try session(container, scope, lifetime)
    // Read at once, while the first thread may still be in the step.
    let completedWhenSeen = seen.completed
    done.wait()
    early.withLock { $0 = (completedWhenSeen, seen === first.withLock { $0 }) }
    let result = try #require(early.withLock { $0 })
    #expect(result.completed, "\(lifetime): handed out before its step ran")
    #expect(result.same, "\(lifetime): two instances")
  }

  @Test(
    "A persistent made inside a resolution whose later factory fails is not published",
    arguments: [Lifetime.persistent, .cached])
  func failedResolutionPublishesNothing(lifetime: Lifetime) async throws {
    struct Broken: Error {}
    final class Outer: Sendable { init(session: Session) throws { throw Broken() } }
    let made = TestAtomic<Int>(0)
    let disposed = TestAtomic<Int>(0)
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(
        Session.self, lifetime: .init(lifetime),
        dispose: { _ in disposed.add(1, ordering: .relaxed) }
      ) { Session(serial: made.add(1, ordering: .relaxed).newValue) }
      registrar.initCompleted(Session.self) { _, session in session.completed = true }
      registrar.bind(Outer.self) { resolver in try Outer(session: resolver.resolve(Session.self))
      }
    }.build()
    #expect(throws: ResolutionError.self) { try container.resolve(Outer.self) }
    // Its step never ran, so it was never handed out; the next request makes a complete one.
    #expect(!container.hasInstance(of: Session.self))
    let session = try container.resolve(Session.self)
    #expect(session.completed && session.serial == 2)
    // The discarded instance is still disposed, once, with the published one.
    try await container.shutdown()
    #expect(disposed.load(ordering: .relaxed) == 2)
  }

  @Test("Many threads racing for a persistent with a step all get the one completed instance")
  func racingThreads() async throws {
    await Stress.run(
      threads: 4, rounds: min(Stress.rounds, 500),
      prepare: { _ in
        try ContainerBuilder().adding { registrar in
          registrar.bind(Session.self, lifetime: .persistent) { Session(serial: 1) }
          registrar.bind(Observer.self) { resolver in
            Observer(session: try resolver.resolve(Session.self))
          }
          registrar.initCompleted(Session.self) { resolver, session in
            session.observer = try resolver.resolve(Observer.self)
            session.completed = true
          }
        }.build()
      },
      work: { container, _ in
        let session = try container.resolve(Session.self)
        return session.completed && session.observer?.session === session
          ? ObjectIdentifier(session) : nil
      },
      check: { round, _, results in
        let distinct = Set(results)
        return distinct.count == 1 && !distinct.contains(nil)
          ? nil : "round \(round): \(results)"
      })
  }
}
