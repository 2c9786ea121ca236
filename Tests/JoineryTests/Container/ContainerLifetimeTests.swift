import Joinery
import Testing

@Suite("Container ownership")
struct ContainerLifetimeTests {
  @Test("Releasing the last reference to a container frees it and its persistent instances")
  func containerFreesInstances() throws {
    let tracker = LifetimeTracker()
    weak var weakContainer: Container?
    do {
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(tracker) }
          registrar.bind(Tracked.self, lifetime: .cached) { _ in Tracked(tracker) }
          registrar.bind(ServiceB.self, lifetime: .graph) { resolver in
            ServiceB(c: try resolver.resolve())
          }
        }
      ).buildOrRecord()
      weakContainer = container
      _ = try container.resolve(ServiceC.self)
      _ = try container.resolve(Tracked.self)
      _ = try container.resolve(ServiceB.self)
      #expect(tracker.aliveCount == 2)
    }
    #expect(weakContainer == nil)
    #expect(tracker.aliveCount == 0)
  }

  @Test("An error kept after its container is released keeps no instance alive")
  func errorsDoNotLeakInstances() throws {
    let tracker = LifetimeTracker()
    var error: ResolutionError?
    do {
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(tracker) }
        }
      ).buildOrRecord()
      _ = try container.resolve(ServiceC.self)
      error = #expect(throws: ResolutionError.self) { try container.resolve(ServiceB.self) }
    }
    // The container is gone, and with it its persistent instance; the error's report still
    // names the near misses (it keeps descriptions, not bindings).
    #expect(tracker.aliveCount == 0)
    #expect(error?.nearMisses.map(\.binding.key) == [BindingKey(ServiceC.self)])
    #expect(error?.debugDescription.contains("ServiceC") == true)
  }
}
