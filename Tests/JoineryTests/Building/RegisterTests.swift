import Joinery
import Testing

private struct CountingNetwork: Assembly {
  let runs: LifetimeTracker
  func register(in registrar: inout Registrar) {
    runs.made.add(1, ordering: .relaxed)
    registrar.bind(ServiceC.self, lifetime: .persistent) { [runs] _ in ServiceC(runs) }
  }
}

private struct FeatureOne: Assembly {
  let runs: LifetimeTracker
  func register(in registrar: inout Registrar) {
    registrar.include(CountingNetwork(runs: runs))
    registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
  }
}

private struct FeatureTwo: Assembly {
  let runs: LifetimeTracker
  func register(in registrar: inout Registrar) {
    registrar.include(CountingNetwork(runs: runs))
    registrar.bind(ServiceA.self) { resolver in
      ServiceA(b: try resolver.resolve(), c: try resolver.resolve())
    }
  }
}

private struct Configured: Assembly, Hashable {
  let tag: String
  func register(in registrar: inout Registrar) {
    registrar.bind(String.self, tag: tag, instance: "value for \(tag)")
  }
}

private struct Unconfigured: Assembly {
  let tag: String
  func register(in registrar: inout Registrar) {
    registrar.bind(String.self, tag: tag, instance: "value for \(tag)")
  }
}

@Suite("Registers and the builder")
struct RegisterTests {
  @Test("An assembly reached twice through a diamond registers once")
  func diamondIncludesOnce() throws {
    let runs = LifetimeTracker()
    let tracker = LifetimeTracker()
    _ = tracker
    let container = try ContainerBuilder(FeatureOne(runs: runs), FeatureTwo(runs: runs))
      .buildOrRecord()
    #expect(runs.madeCount == 1)
    let a = try container.resolve(ServiceA.self)
    #expect(a.b.c === a.c)
  }

  @Test("Hashable registers with different values both register; equal ones once")
  func hashableIdentity() throws {
    let container = try ContainerBuilder(
      Configured(tag: "a"), Configured(tag: "b"), Configured(tag: "a")
    ).buildOrRecord()
    #expect(try container.resolve(String.self, tag: "a") == "value for a")
    #expect(try container.resolve(String.self, tag: "b") == "value for b")
  }

  @Test("Non-hashable registers are told apart by what they hold: different ones both register")
  func valueIdentityWithoutHashable() throws {
    let container = try ContainerBuilder(
      Unconfigured(tag: "a"), Unconfigured(tag: "b"), Unconfigured(tag: "a")
    ).buildOrRecord()
    #expect(try container.resolve(String.self, tag: "a") == "value for a")
    #expect(try container.resolve(String.self, tag: "b", matching: .exact) == "value for b")
    #expect(container.warnings.isEmpty, "the third, equal to the first, is a diamond: skipped")
  }

  @Test("One register type bound twice by two differing instances: the fix names the cause")
  func differingInstancesOfOneRegister() throws {
    struct Pinned: Assembly {
      let build: Int
      func register(in registrar: inout Registrar) {
        registrar.bind(String.self, instance: "build \(build)")
      }
    }
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(Pinned(build: 1), Pinned(build: 2)).build()
    }
    let diagnostic = error?.diagnostics.first(where: \.isError)
    #expect(diagnostic?.code == .duplicateBinding)
    #expect(
      diagnostic?.fixes.first?.hasPrefix(
        "If Pinned was added or included more than once: a register reached twice runs once "
          + "only when the two are equal") == true, "\(String(describing: diagnostic?.fixes))")
    // Equal instances are one register: no duplicate.
    #expect(
      try ContainerBuilder(Pinned(build: 1), Pinned(build: 1)).build().resolve(String.self)
        == "build 1")
  }

  @Test("Two builds of one builder give independent containers")
  func buildsAreIndependent() throws {
    let tracker = LifetimeTracker()
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(tracker) }
      })
    let first = try builder.buildOrRecord()
    let second = try builder.buildOrRecord()
    let fromFirst = try first.resolve(ServiceC.self)
    let fromSecond = try second.resolve(ServiceC.self)
    #expect(fromFirst !== fromSecond)
    #expect(try first.resolve(ServiceC.self) === fromFirst)
    #expect(tracker.madeCount == 2)
  }

  @Test("Nothing is created by build unless asked to be eager")
  func buildCreatesNothing() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(tracker) }
        registrar.bind(Tracked.self, instance: Tracked(tracker))
      }
    ).buildOrRecord()
    #expect(tracker.madeCount == 0)
    _ = try container.resolve(Tracked.self)
    _ = try container.resolve(Tracked.self)
    #expect(tracker.madeCount == 1)
  }

  @Test("The builder is a value: a copy can be changed without touching the original")
  func builderIsAValue() throws {
    let production = ContainerBuilder(
      Bindings { registrar in registrar.bind(String.self, instance: "production") })
    let test = production.overriding(
      with: Bindings { registrar in registrar.bind(String.self, instance: "test") })
    #expect(try production.buildOrRecord().resolve(String.self) == "production")
    #expect(try test.buildOrRecord().resolve(String.self) == "test")
  }
}
