import Joinery
import Testing

@Suite("Nothing kept per resolve")
struct HeapGrowthTests {
  @Test(
    "200,000 ephemeral or graph resolves leave no instance behind",
    arguments: [Lifetime.ephemeral, .graph])
  func nothingKept(lifetime: Lifetime) throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .init(lifetime)) { _ in ServiceC(tracker) }
        registrar.bind(ServiceB.self, lifetime: .init(lifetime), to: ServiceB.init(c:))
        registrar.bind(ServiceA.self, lifetime: .init(lifetime), to: ServiceA.init(b:c:))
      }
    ).buildOrRecord()
    for _ in 0..<200_000 { _ = try container.resolve(ServiceA.self) }
    // Ephemeral: two Cs per resolve; graph: one shared C. None is kept by the container (the
    // graph scope's own memory is checked by LeakSanitizer in CI).
    #expect(tracker.madeCount == (lifetime == .graph ? 200_000 : 400_000))
    #expect(tracker.aliveCount == 0)
  }
}
