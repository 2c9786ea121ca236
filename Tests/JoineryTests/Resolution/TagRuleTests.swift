import Joinery
import Testing

/// One rule for tags wherever they are given: an optional tag stands for its value, `nil` for
/// no tag; a tag that never equals itself is refused at build.
@Suite("Tag rules")
struct TagRuleTests {
  static func container() throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Store.self, lifetime: .persistent) { _ in Store(name: "memory") }
        let disk: String? = "disk"
        registrar.bind(Store.self, tag: disk, lifetime: .persistent) { _ in Store(name: "disk") }
      }
    ).build()
  }

  @Test("An optional tag resolves the binding tagged with its value, also with .exact")
  func optionalTagIsItsValue() throws {
    let container = try Self.container()
    let tag: String? = "disk"
    #expect(try container.resolve(Store.self, tag: tag).name == "disk")
    #expect(try container.resolve(Store.self, tag: tag, matching: .exact).name == "disk")
    #expect(try container.resolve(Store.self, tag: "disk").name == "disk")
    #expect(try container.resolve(Store?.self, tag: tag)?.name == "disk")
    #expect(BindingTag(tag) == BindingTag("disk"))
  }

  @Test("A nil optional tag is an untagged request, as it is an untagged binding")
  func nilTagIsUntagged() throws {
    let container = try Self.container()
    let none: String? = nil
    #expect(try container.resolve(Store.self, tag: none).name == "memory")
    #expect(try container.resolve(Store.self, tag: none, matching: .exact).name == "memory")
    #expect(
      try container.resolve(Store.self, tag: none) === container.resolve(Store.self),
      "the same instance, not a fallback copy")
  }

  @Test("Inside a factory, an optional tag follows the same rule")
  func optionalTagInFactory() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Store.self, tag: "disk") { _ in Store(name: "disk") }
        registrar.bind(Shelf.self) { resolver in
          let tag: String? = "disk"
          return Shelf(store: try resolver.resolve(Store.self, tag: tag, matching: .exact))
        }
      }
    ).build()
    #expect(try container.resolve(Shelf.self).store.name == "disk")
  }

  @Test("A BindingTag? — the type of the forms' untagged default — is its value, or no tag")
  func bindingTagOptional() async throws {
    let container = try Self.container()
    let disk: BindingTag? = "disk"
    let none: BindingTag? = nil
    #expect(try container.resolve(Store.self, tag: disk).name == "disk")
    #expect(try container.resolve(Store.self, tag: disk, matching: .exact).name == "disk")
    #expect(try container.resolve(Store.self, tag: none).name == "memory")
    #expect(try await container.resolveAsync(Store.self, tag: disk).name == "disk")
    #expect(try await container.resolveAsync(Store.self, tag: none).name == "memory")
    #expect(
      try await container.resolveAsync(Store.self, tag: none)
        === container.resolve(Store.self))
    #expect(try container.resolve(Store.self) === container.resolve(Store.self, tag: none))
  }

  @Test("Runtime arguments take a tag in every arity, with fallback, .exact and optional tags")
  func taggedArguments() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Label.self) { (_, text: String) in Label(text: "plain \(text)") }
        registrar.bind(Label.self, tag: "loud") { (_, text: String) in Label(text: "LOUD \(text)") }
        registrar.bind(Label.self) { (_, a: String, b: Int) in Label(text: "plain \(a)\(b)") }
        registrar.bind(Label.self, tag: "loud") { (_, a: String, b: Int) in
          Label(text: "LOUD \(a)\(b)")
        }
        registrar.bind(Label.self, tag: "loud") { (_, a: String, b: Int, c: Bool) in
          Label(text: "LOUD \(a)\(b)\(c)")
        }
        registrar.bind(Label.self, tag: "loud") { (_, a: String, b: Int, c: Bool, d: Double) in
          Label(text: "LOUD \(a)\(b)\(c)\(d)")
        }
      }
    ).build()
    let loud: String? = "loud"
    let none: String? = nil
    #expect(try container.resolve(Label.self, arguments: "x").text == "plain x")
    #expect(try container.resolve(Label.self, tag: "loud", arguments: "x").text == "LOUD x")
    #expect(try container.resolve(Label.self, tag: loud, arguments: "x").text == "LOUD x")
    #expect(try container.resolve(Label.self, tag: none, arguments: "x").text == "plain x")
    #expect(try container.resolve(Label.self, tag: "other", arguments: "x").text == "plain x")
    #expect(try container.resolve(Label.self, tag: "loud", arguments: "x", 2).text == "LOUD x2")
    #expect(try container.resolve(Label.self, tag: "other", arguments: "x", 2).text == "plain x2")
    #expect(
      try container.resolve(Label.self, tag: "loud", arguments: "x", 2, true).text == "LOUD x2true")
    #expect(
      try container.resolve(Label.self, tag: loud, arguments: "x", 2, true, 1.5).text
        == "LOUD x2true1.5")
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(Label.self, tag: "other", matching: .exact, arguments: "x")
    }
    // The arguments are right; the tag is what nothing is bound under, and the report says
    // which tags take these arguments.
    #expect(error.code == .missingBinding, "\(error.debugDescription)")
    #expect(error.description.contains("other"))
    #expect(error.debugDescription.contains(#"is bound with tag "loud" with arguments (String)"#))
    #expect(error.debugDescription.contains("is bound untagged with arguments (String)"))
    #expect(throws: ResolutionError.self) {
      try container.resolve(Label.self, tag: "other", arguments: "x", 2, true)
    }
  }

  @Test("resolveAll and resolveAllAsync: a nil optional tag gives the untagged contributions")
  func collectionsWithOptionalTags() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.contribute(Store.self) { _ in Store(name: "a") }
        registrar.contribute(Store.self, tag: "t") { _ in Store(name: "b") }
      }
    ).build()
    let none: String? = nil
    let tagged: String? = "t"
    #expect(try container.resolveAll(Store.self, tag: none).map(\.name) == ["a"])
    #expect(try container.resolveAll(Store.self, tag: tagged).map(\.name) == ["b"])
    #expect(try container.resolveAll(Store.self).map(\.name) == ["a"])
    #expect(try await container.resolveAllAsync(Store.self, tag: none).map(\.name) == ["a"])
    #expect(try await container.resolveAllAsync(Store.self, tag: "t").map(\.name) == ["b"])
  }

  @Test("Two bindings tagged Double.nan fail the build with a clear error")
  func nanTagsRejected() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Store.self, tag: Double.nan) { _ in Store(name: "a") }
          registrar.bind(Store.self, tag: Double.nan) { _ in Store(name: "b") }
        }
      ).build()
    }
    #expect(error.diagnostics.filter { $0.code == .unmatchableTag }.count == 2)
    #expect(error.description.contains("does not equal itself"))
  }

  @Test("Tags whose hashes collide stay apart: equality, not the hash, tells them apart")
  func collidingHashes() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Store.self, tag: CollidingTag(id: 1)) { _ in Store(name: "one") }
        registrar.bind(Store.self, tag: CollidingTag(id: 2)) { _ in Store(name: "two") }
      }
    ).build()
    #expect(try container.resolve(Store.self, tag: CollidingTag(id: 1)).name == "one")
    #expect(try container.resolve(Store.self, tag: CollidingTag(id: 2)).name == "two")
    #expect(throws: ResolutionError.self) {
      try container.resolve(Store.self, tag: CollidingTag(id: 3), matching: .exact)
    }
    #expect(BindingTag(CollidingTag(id: 1)) != BindingTag(CollidingTag(id: 2)))
  }

  @Test("A maximum resolution depth below 1 fails the build")
  func depthBelowOne() throws {
    for depth in [0, -5] {
      var builder = ContainerBuilder(
        Bindings { registrar in registrar.bind(Store.self) { _ in Store(name: "x") } })
      builder.maximumResolutionDepth = depth
      let error = try #require(throws: BuildError.self) { try builder.build() }
      #expect(error.diagnostics.map(\.code) == [.invalidSetting])
      #expect(error.debugDescription.contains("maximumResolutionDepth"))
    }
  }

  @Test("Line breaks and quotes in tags stay inside Mermaid and DOT labels")
  func exportEscapes() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Store.self, tag: "two\nlines \"quoted\" #1") { _ in Store(name: "x") }
      }
    ).build()
    let mermaid = container.graph.mermaid
    let dot = container.graph.dot
    #expect(!mermaid.contains("two\nlines"))
    #expect(mermaid.contains("two#92;nlines"))
    #expect(!dot.contains("two\nlines"))
    #expect(dot.contains(#"two\nlines \"quoted\""#))
    // Every node is still one line.
    #expect(mermaid.split(separator: "\n").allSatisfy { !$0.hasPrefix("lines") })
  }
}

private final class Store: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

private final class Label: Sendable {
  let text: String
  init(text: String) { self.text = text }
}

private final class Shelf: Sendable {
  let store: Store
  init(store: Store) { self.store = store }
}

/// A tag type whose values all hash alike.
private struct CollidingTag: Hashable, Sendable {
  let id: Int
  func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

@Suite("A Provider or Lazy keeps the request's tag rule")
struct DerivedTagRuleTests {
  private func container() throws -> Container {
    try ContainerBuilder()
      .adding { registrar in
        registrar.bind(Store.self) { _ in Store(name: "untagged") }
        registrar.bind(Store.self, tag: "x") { _ in Store(name: "x") }
      }
      .build()
  }

  @Test("With .exact, a tag nothing binds is refused, naming the binding to add")
  func exactRefused() throws {
    let container = try container()
    let provider = #expect(throws: ResolutionError.self) {
      try container.resolve(Provider<Store>.self, tag: "zz", matching: .exact)
    }
    let lazy = #expect(throws: ResolutionError.self) {
      try container.resolve(Lazy<Store>.self, tag: "zz", matching: .exact)
    }
    for error in [provider, lazy] {
      #expect(error?.code == .missingBinding)
      #expect(
        error?.debugDescription.contains(#"registrar.bind(Store.self, tag: "zz")"#) == true,
        "\(error?.debugDescription ?? "")")
    }
    // `Provider<Store>?` under the exact rule: nothing serves it.
    #expect(try container.resolve(Provider<Store>?.self, tag: "zz", matching: .exact) == nil)
  }

  @Test("With .exact, the tagged binding serves; with the fallback, the untagged one")
  func exactServed() throws {
    let container = try container()
    let exact = try container.resolve(Provider<Store>.self, tag: "x", matching: .exact)
    #expect(try exact.get().name == "x")
    let fallback = try container.resolve(Provider<Store>.self, tag: "zz")
    #expect(try fallback.get().name == "untagged")
  }
}
