import Joinery
import Testing

@Suite("verify()")
struct VerifyTests {
  @Test("verify creates every binding in a throwaway copy, never touching the real instances")
  func throwawayCopy() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(tracker) }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
      }
    ).buildOrRecord()
    let real = try container.resolve(ServiceC.self)
    let report = try container.verify()
    #expect(report.verified == [BindingKey(ServiceB.self), BindingKey(ServiceC.self)])
    #expect(try container.resolve(ServiceC.self) === real)
    #expect(tracker.madeCount == 2)
    #expect(tracker.aliveCount == 1, "the copy's instances are gone with it")
  }

  @Test("verify reports every failure at once and lists bindings that need arguments")
  func allFailures() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self) { _ in throw TestFailure(message: "no disk") }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
        registrar.bind(ServiceA.self) { resolver in
          ServiceA(b: try resolver.resolve(), c: try resolver.resolve(ServiceC.self, tag: "x"))
        }
        registrar.bind(String.self) { (_, name: String) in name }
        registrar.bind(Int.self, instance: 1)
      }
    ).buildOrRecord()
    let error = try #require(throws: VerificationError.self) { try container.verify() }
    #expect(
      error.failures.map { $0.path.first?.requested.typeName } == [
        "ServiceA", "ServiceB", "ServiceC",
      ])
    #expect(error.failures.allSatisfy { $0.code == .factoryFailed })
    #expect(error.report.verified == [BindingKey(Int.self)])
    #expect(error.report.skipped.map(\.key.typeName) == ["String"])
  }

  @Test("verify observes the edges unchecked factories take")
  func observedEdges() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
      }
    ).buildOrRecord()
    #expect(container.graph.edges.isEmpty)
    let report = try container.verify()
    #expect(
      report.graph.edges.map { "\($0.from) → \($0.to) \($0.kind)" } == [
        "ServiceB → ServiceC observed"
      ])
  }

  @Test("verifyAsync observes the edges async factories take: sync, async, main-actor, arguments")
  func observedAsyncEdges() async throws {
    let container = try ContainerBuilder()
      .adding { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bindAsync(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
        registrar.bindAsync(String.self) { (resolver, name: String) in
          _ = try await resolver.resolveAsync(ServiceB.self)
          return name
        }
        registrar.bindMainActor(Int.self) { _ in 1 }
        registrar.bindAsync(ServiceA.self) { resolver in
          _ = try await resolver.resolveAsync(String.self, arguments: "a")
          _ = try await resolver.resolveAsync(Int.self)
          return ServiceA(b: try await resolver.resolveAsync(), c: try resolver.resolve())
        }
      }
      .build()
    var samples = SampleArguments()
    samples.add(String.self, arguments: "sample")
    let report = try await container.verifyAsync(arguments: samples)
    #expect(
      Set(report.graph.edges.map { "\($0.from.typeName) → \($0.to.typeName) \($0.kind)" }) == [
        "ServiceA → Int observed", "ServiceA → ServiceB observed", "ServiceA → ServiceC observed",
        "ServiceA → String observed", "ServiceB → ServiceC observed", "String → ServiceB observed",
      ])
  }
}
