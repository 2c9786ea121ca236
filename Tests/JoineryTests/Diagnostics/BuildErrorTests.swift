import Joinery
import Testing

private protocol Clock: Sendable {}
private final class SystemClock: Clock {}
private final class Feed: Sendable {}
private struct Settings {}

private struct Network: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(Feed.self, lifetime: .persistent) { _ in Feed() }
    registrar.bind((any Clock).self, forwardingTo: SystemClock.self)
  }
}

private struct Storage: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(Feed.self) { _ in Feed() }
    registrar.bind(Settings.self, lifetime: .transient) { _ in Settings() }
  }
}

@Suite("Build errors")
struct BuildErrorTests {
  @Test("build() reports every problem at once, sorted, with locations and fixes")
  func everyProblemAtOnce() throws {
    // Added in both orders: the report must not change.
    for builder in [ContainerBuilder(Network(), Storage()), ContainerBuilder(Storage(), Network())]
    {
      let error = try #require(throws: BuildError.self) { try builder.build() }
      #expect(
        error.description
          == "Container build failed with 3 errors. First: Feed is bound 2 times: Network at JoineryTests/BuildErrorTests.swift:11 and Storage at JoineryTests/BuildErrorTests.swift:18."
      )
      let expected = """
        Container build failed: 3 errors, 0 warnings.
        1. error: duplicateBinding: Feed is bound 2 times: Network at JoineryTests/BuildErrorTests.swift:11 and Storage at JoineryTests/BuildErrorTests.swift:18.
            at Network at JoineryTests/BuildErrorTests.swift:11
            at Storage at JoineryTests/BuildErrorTests.swift:18
            fix: Remove all but one binding of Feed.
            fix: Or, to replace it on purpose (a test or a variant), declare the replacement with `override: true` or add its register with `builder.overriding(with:)`.
            fix: Or give them different tags.
        2. error: transientValueType: Settings is transient (weak), but Settings is a value type, which cannot be referenced weakly.
            at Storage at JoineryTests/BuildErrorTests.swift:19
            fix: Use .persistent, .cached, .graph or .ephemeral for a value type.
            fix: Or make Settings a class.
        3. error: invalidForwardingTarget: Clock forwards to SystemClock, but nothing is bound to SystemClock.
            at Network at JoineryTests/BuildErrorTests.swift:12
            fix: Bind SystemClock with a factory or an instance, and forward to it.
            fix: Or bind Clock with its own factory.
        """
      #expect(error.debugDescription == expected)
    }
  }

  @Test("A cycle report shows the whole cycle and each binding's origin")
  func cycleReport() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceA.self) { resolver in
          _ = try resolver.resolve(ServiceB.self)
          return ServiceA(
            b: ServiceB(c: ServiceC(LifetimeTracker())), c: ServiceC(LifetimeTracker()))
        }
        registrar.bind(ServiceB.self, lifetime: .persistent) { resolver in
          _ = try resolver.resolve(ServiceA.self)
          return ServiceB(c: ServiceC(LifetimeTracker()))
        }
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) { try container.resolve(ServiceA.self) }
    let expected = """
      ResolutionError.cycle: Dependency cycle: ServiceA → ServiceB → ServiceA.
      Resolution path: ServiceA → ServiceB → ServiceA
        ServiceA  [ephemeral] Bindings at JoineryTests/BuildErrorTests.swift:60
        ServiceB  [persistent] Bindings at JoineryTests/BuildErrorTests.swift:65
        ServiceA  [ephemeral] Bindings at JoineryTests/BuildErrorTests.swift:60
      To fix:
        - Break the cycle: let one of them take the other as `Lazy<T>` or `Provider<T>` (resolved on first use, after construction), set a property later, or depend on a narrower protocol that does not lead back.
        - Or move the shared state into a third binding both can depend on.
      """
    #expect(error.debugDescription == expected)
  }

  @Test("Bindings declared at one place share one location line, with their count")
  func onePlaceOneLine() throws {
    let line = #line + 2
    let builder = ContainerBuilder(
      Bindings { registrar in for _ in 0..<3 { registrar.bind(Feed.self) { _ in Feed() } } })
    let error = try #require(throws: BuildError.self) { try builder.build() }
    let report = error.debugDescription
    #expect(
      report.contains(
        "Feed is bound 3 times: Bindings at JoineryTests/BuildErrorTests.swift:\(line) (3 times)."))
    #expect(
      report.contains(
        "\n    at Bindings at JoineryTests/BuildErrorTests.swift:\(line) (3 bindings)\n"))
    #expect(!report.contains("BuildErrorTests.swift:\(line)\n"))
  }
}
