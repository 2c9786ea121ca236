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

private final class Shelf: Sendable {
  let store: Store
  init(store: Store) { self.store = store }
}

/// A tag type whose values all hash alike.
private struct CollidingTag: Hashable, Sendable {
  let id: Int
  func hash(into hasher: inout Hasher) { hasher.combine(0) }
}
