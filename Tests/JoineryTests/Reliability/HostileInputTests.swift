import Foundation
import Joinery
import Testing

/// Resolves from its container when it is released.
private final class Farewell: @unchecked Sendable {
  weak var container: Container?
  let said: LifetimeTracker
  init(container: Container?, said: LifetimeTracker) {
    self.container = container
    self.said = said
  }
  deinit {
    if (try? container?.resolve(Tracked.self)) != nil { said.made.add(1, ordering: .relaxed) }
  }
}

@Suite("Hostile input")
struct HostileInputTests {
  @Test("Resolving inside a deinit works")
  func resolveInDeinit() throws {
    let tracker = LifetimeTracker()
    let said = LifetimeTracker()
    let box = ContainerBox()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Tracked.self, lifetime: .persistent) { _ in Tracked(tracker) }
        registrar.bind(Farewell.self) { _ in Farewell(container: box.container, said: said) }
      }
    ).buildOrRecord()
    box.container = container
    defer { box.container = nil }
    for _ in 0..<10 { _ = try container.resolve(Farewell.self) }
    #expect(said.madeCount == 10)
  }

  @Test("A factory may resolve other bindings from another thread while it is being built")
  func otherThreadDuringBuild() async throws {
    let box = ContainerBox()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bind(ServiceB.self, lifetime: .persistent) { _ in
          // Resolve a dependency on another thread and wait for it.
          let result = Locked<ServiceC?>(nil)
          let done = DispatchSemaphore(value: 0)
          Thread {
            result.withLock { $0 = try? box.container?.resolve(ServiceC.self) }
            done.signal()
          }.start()
          done.wait()
          guard let c = result.withLock({ $0 }) else { throw TestFailure(message: "no C") }
          return ServiceB(c: c)
        }
      }
    ).buildOrRecord()
    box.container = container
    defer { box.container = nil }
    let b = await Stress.onThread { try? container.resolve(ServiceB.self) }
    #expect(b??.c === (try container.resolve(ServiceC.self)))
  }

  @Test("Factories that throw leave nothing half-built, and every later resolve retries")
  func throwingFactories() throws {
    let attempts = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        for lifetime in [Lifetime.persistent, .cached, .transient, .ephemeral, .graph] {
          registrar.bind(Tracked.self, tag: "\(lifetime)", lifetime: .init(lifetime)) { _ in
            if attempts.made.add(1, ordering: .relaxed).newValue % 2 == 1 {
              throw TestFailure(message: "flaky")
            }
            return Tracked(LifetimeTracker())
          }
        }
      }
    ).buildOrRecord()
    for lifetime in [Lifetime.persistent, .cached, .transient, .ephemeral, .graph] {
      let error = try #require(throws: ResolutionError.self) {
        try container.resolve(Tracked.self, tag: "\(lifetime)")
      }
      #expect(error.code == .factoryFailed)
      let instance = try container.resolve(Tracked.self, tag: "\(lifetime)")
      _ = instance
    }
  }
}
