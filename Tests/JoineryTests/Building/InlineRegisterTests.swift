import Joinery
import JoineryTesting
import Testing

private struct Production: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(String.self, lifetime: .persistent) { _ in "production" }
    registrar.bind(Int.self, instance: 1)
  }
}

@Suite("Inline registers")
struct InlineRegisterTests {
  @Test("A one-off override is one expression; the rest of production stays")
  func overridingWithAClosure() throws {
    let container = try ContainerBuilder(Production())
      .overriding { registrar in registrar.bind(String.self, instance: "double") }
      .build()
    #expect(try container.resolve(String.self) == "double")
    #expect(try container.resolve(Int.self) == 1)
  }

  @Test("Two inline registers both register, even with the same body")
  func inlineRegistersAreDistinct() throws {
    let first = InlineRegister { registrar in registrar.bind(Int.self, instance: 1) }
    let second = InlineRegister { registrar in registrar.bind(Int.self, instance: 1) }
    #expect(first != second)
    #expect(first == first)
    // Both register, so the second binding of Int is a duplicate the build reports.
    #expect(throws: BuildError.self) { try ContainerBuilder(first, second).build() }
    // The same inline register reached twice registers once, as any register does.
    #expect(try ContainerBuilder(first, first).build().resolve(Int.self) == 1)
  }

  @Test("Inline bindings can be added to a builder")
  func adding() throws {
    let container = try ContainerBuilder(Production())
      .adding { registrar in registrar.bind(Double.self, instance: 2.5) }
      .build()
    #expect(try container.resolve(Double.self) == 2.5)
  }

  @Test(
    "The test trait takes the overrides as a closure",
    .container(ContainerBuilder(Production())) { registrar in
      registrar.bind(String.self, instance: "from the trait")
    })
  func traitOverride() throws {
    #expect(try Container.current?.resolve(String.self) == "from the trait")
  }
}
