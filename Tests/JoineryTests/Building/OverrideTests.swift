import Joinery
import Testing

private struct Production: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(String.self, lifetime: .persistent) { _ in "production" }
    registrar.bind(Int.self, instance: 1)
  }
}

private struct Doubles: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(String.self, lifetime: .persistent) { _ in "test double" }
  }
}

private struct InlineOverride: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(Int.self, override: true, instance: 2)
  }
}

private struct AlsoBindsString: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(String.self) { _ in "again" }
  }
}

@Suite("Overrides and duplicates")
struct OverrideTests {
  @Test("An override register wins whatever the order it was added in")
  func overrideWinsInAnyOrder() throws {
    var overrideFirst = ContainerBuilder()
    overrideFirst = overrideFirst.overriding(with: Doubles())
    overrideFirst = overrideFirst.adding(Production())
    var overrideLast = ContainerBuilder()
    overrideLast = overrideLast.adding(Production())
    overrideLast = overrideLast.overriding(with: Doubles())
    #expect(try overrideFirst.buildOrRecord().resolve(String.self) == "test double")
    #expect(try overrideLast.buildOrRecord().resolve(String.self) == "test double")
  }

  @Test("An override wins over a persistent production binding that was already resolved elsewhere")
  func overrideWinsOverPersistent() throws {
    let production = ContainerBuilder(Production())
    let real = try production.buildOrRecord()
    #expect(try real.resolve(String.self) == "production")
    let test = try production.overriding(with: Doubles()).buildOrRecord()
    #expect(try test.resolve(String.self) == "test double")
    #expect(try real.resolve(String.self) == "production")
  }

  @Test("An override-marked binding inside a regular assembly wins in either order")
  func inlineOverride() throws {
    let one = try ContainerBuilder(Production(), InlineOverride()).buildOrRecord()
    let two = try ContainerBuilder(InlineOverride(), Production()).buildOrRecord()
    #expect(try one.resolve(Int.self) == 2)
    #expect(try two.resolve(Int.self) == 2)
  }

  @Test("Two registers binding one key fail the build, naming both")
  func duplicateFails() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(Production(), AlsoBindsString()).build()
    }
    let finding = try #require(error.diagnostics.first)
    #expect(error.diagnostics.count == 1)
    #expect(finding.code == .duplicateBinding)
    #expect(finding.key == BindingKey(String.self))
    #expect(
      finding.bindings.map { "\($0.registerType)" }.sorted() == ["AlsoBindsString", "Production"])
    #expect(finding.message.contains("Production at JoineryTests/OverrideTests.swift:6"))
    #expect(finding.message.contains("AlsoBindsString at JoineryTests/OverrideTests.swift:25"))
  }

  @Test("Among many tags of one type, a key bound four times is one duplicate of four")
  func duplicateAmongManyTags() throws {
    // More than 16 bindings of one type: the bindings are grouped by key through a dictionary.
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          for index in 0..<40 {
            registrar.bind(String.self, tag: index % 10 == 3 ? 3 : index) { _ in "\(index)" }
          }
        }
      ).build()
    }
    #expect(error.diagnostics.map(\.code) == [.duplicateBinding])
    #expect(error.diagnostics.first?.key == BindingKey(String.self, tag: 3))
    #expect(error.diagnostics.first?.bindings.count == 4)
  }

  @Test("Two overrides of one key are a duplicate too")
  func duplicateOverrides() throws {
    var builder = ContainerBuilder(Production())
    builder = builder.overriding(with: Doubles())
    builder = builder.overriding(
      with: Bindings { registrar in registrar.bind(String.self) { _ in "other" } })
    let error = try #require(throws: BuildError.self) { try builder.build() }
    #expect(error.diagnostics.map(\.code) == [.duplicateBinding])
    #expect(error.diagnostics.first?.message.hasPrefix("String is overridden 2 times") == true)
  }

  @Test("An override with nothing to replace is a warning, readable from the container")
  func overrideWithoutTarget() throws {
    let container = try ContainerBuilder()
      .overriding(with: Bindings { registrar in registrar.bind(Double.self, instance: 1.5) })
      .buildOrRecord()
    #expect(try container.resolve(Double.self) == 1.5)
    #expect(container.warnings.map(\.code) == [.overrideWithoutTarget])
    #expect(container.warnings.first?.isError == false)
  }

  @Test("Every permutation of the same assemblies resolves identically")
  func permutationsAgree() throws {
    let registers: [any DependencyRegister] = [
      Production(), InlineOverride(),
      Bindings("a") { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
      },
      Bindings("b") { registrar in
        registrar.bind(Bool.self, tag: "flag", instance: true)
      },
    ]
    var outcomes: Set<String> = []
    for permutation in registers.indices.permutations() {
      var builder = ContainerBuilder()
      for index in permutation { builder = builder.adding(registers[index]) }
      let container = try builder.buildOrRecord()
      let text =
        try "\(container.resolve(String.self)) \(container.resolve(Int.self)) "
        + "\(container.resolve(Bool.self, tag: "flag")) \(container.bindings.map(\.description))"
      outcomes.insert(text)
    }
    #expect(outcomes.count == 1)
  }
}

extension Range<Int> {
  fileprivate func permutations() -> [[Int]] {
    guard let first else { return [[]] }
    return (first + 1..<upperBound).permutations().flatMap { rest in
      (0...rest.count).map { position in
        var permutation = rest
        permutation.insert(first, at: position)
        return permutation
      }
    }
  }
}
