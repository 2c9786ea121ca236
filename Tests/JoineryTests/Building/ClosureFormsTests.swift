import Joinery
import JoineryTesting
import Testing

private struct Production: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(String.self, lifetime: .persistent) { _ in "production" }
    registrar.bind(Int.self, instance: 1)
  }
}

@Suite("Bindings declared in a closure")
struct ClosureFormsTests {
  @Test("A one-off override is one expression; the rest of production stays")
  func overridingWithAClosure() throws {
    let container = try ContainerBuilder(Production())
      .overriding { registrar in registrar.bind(String.self, instance: "double") }
      .build()
    #expect(try container.resolve(String.self) == "double")
    #expect(try container.resolve(Int.self) == 1)
  }

  @Test("Two closures both register, even with the same body")
  func closuresAreDistinct() throws {
    let body: @Sendable (inout Registrar) -> Void = { registrar in
      registrar.bind(Int.self, instance: 1)
    }
    // Both register, so the second binding of Int is a duplicate the build reports.
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding(body).adding(body).build()
    }
    #expect(error?.diagnostics.map(\.code) == [.duplicateBinding])
    // As overrides, the second replaces the same key twice: a duplicate override.
    let overrides = #expect(throws: BuildError.self) {
      try ContainerBuilder(Production()).overriding(body).overriding(body).build()
    }
    #expect(overrides?.diagnostics.map(\.code) == [.duplicateBinding])
  }

  @Test("A child container from a closure resolves the rest through its parent")
  func makeChildWithAClosure() throws {
    let parent = try ContainerBuilder(Production()).build()
    let child = try parent.makeChild { registrar in
      registrar.bind(Int.self, instance: 2)
      registrar.bind(Double.self) { (number: Int) in Double(number) / 4 }
    }
    #expect(try child.resolve(Int.self) == 2)
    #expect(try child.resolve(Double.self) == 0.5)
    #expect(try child.resolve(String.self) == "production")
    #expect(try parent.resolve(Int.self) == 1)
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
