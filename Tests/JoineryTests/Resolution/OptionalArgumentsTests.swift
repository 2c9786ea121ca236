import Joinery
import Testing

private final class Download: Sendable {
  let url: String
  let retries: Int
  init(url: String, retries: Int) {
    self.url = url
    self.retries = retries
  }
}

@Suite("An optional resolved with runtime arguments")
struct OptionalArgumentsTests {
  static let container = try? ContainerBuilder(
    Bindings { registrar in
      registrar.bind(Download.self) { (_, url: String, retries: Int) in
        Download(url: url, retries: retries)
      }
      registrar.bind(Int.self) { (_, seed: Int) in seed * 2 }
    }
  ).build()

  @Test("Bound with these argument types: a new instance; other types or unbound: nil")
  func resolvesOrNil() throws {
    let container = try #require(Self.container)
    let download = try container.resolve(Download?.self, arguments: "a", 3)
    #expect(download?.url == "a")
    #expect(download?.retries == 3)
    #expect(try container.resolve(Download?.self, arguments: "a") == nil)
    #expect(try container.resolve(Int?.self, arguments: 4) == 8)
    #expect(try container.resolve(String?.self, arguments: 4) == nil)
  }
}
