import Joinery
import Testing

/// Wherever a tag is accepted, any `Hashable & Sendable` value works: the enum a user binds with
/// is the enum they resolve, inject and look up with.
@Suite("One tag spelling")
struct TagSpellingTests {
  enum Shelf: Hashable, Sendable { case disk, memory }

  final class Store: Sendable {
    let name: String
    init(name: String) { self.name = name }
  }

  final class Screen: @unchecked Sendable {
    var store: Store?
  }

  static func container() throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Store.self, tag: Shelf.disk, lifetime: .persistent) { _ in
          Store(name: "disk")
        }
        registrar.bind(Store.self, tag: Shelf.memory, lifetime: .persistent) { _ in
          Store(name: "memory")
        }
      }
    ).build()
  }

  @Test("@Injected, resolve, bindings' keys and inject(into:) take the enum value")
  func everyEntryPointTakesTheEnum() throws {
    let container = try Self.container()
    let injected = Injected<Store>(from: container, tag: Shelf.disk)
    #expect(try injected.get().name == "disk")
    #expect(try container.resolve(Store.self, tag: Shelf.memory).name == "memory")
    // A binding's key, found by its tag, resolves with that tag.
    let keys = container.bindings.map(\.key).filter { $0.tag == BindingTag(Shelf.disk) }
    #expect(keys.count == 1)
    #expect(try keys.map { try container.resolve(Store.self, tag: $0.tag).name } == ["disk"])
    #expect(
      BindingKey(Store.self, tag: Shelf.disk) == BindingKey(Store.self, tag: BindingTag(Shelf.disk))
    )
    let screen = Screen()
    try container.inject(into: screen) { resolver, screen in
      screen.store = try resolver.resolve(Store.self, tag: Shelf.memory)
    }
    #expect(screen.store?.name == "memory")
  }

  @Test("A BindingTag and a string literal still work where a tag is accepted")
  func bindingTagsAndLiteralsStillWork() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Store.self, tag: "audit", lifetime: .persistent) { _ in Store(name: "audit")
        }
      }
    ).build()
    #expect(try Injected<Store>(from: container, tag: "audit").get().name == "audit")
    #expect(try Injected<Store>(from: container, tag: BindingTag("audit")).get().name == "audit")
    #expect(try container.resolve(Store.self, tag: BindingTag("audit")).name == "audit")
  }
}
