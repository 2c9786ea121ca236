import Joinery
import Testing

private struct Logger: Sendable {
  let category: String
}
private struct FeedService: Sendable {
  let logger: Logger
}
private struct Download: Sendable {
  let url: String
  let retries: Int
}
private struct Downloads: Sendable {
  let make: Provider<Download>
}

@Suite("What a factory can see of its resolution (Dip's ContextTests)")
struct ResolverContextTests {
  private func container() throws -> Container {
    try ContainerBuilder().adding { registrar in
      registrar.bind(Logger.self) { resolver in
        let tag = resolver.requested.tag.map { "\($0)" }
        return Logger(category: tag ?? resolver.consumer.map { "\($0.type)" } ?? "app")
      }
      registrar.bind(FeedService.self, to: FeedService.init(logger:))
      registrar.bind(FeedService.self, tag: "audited") { resolver in
        FeedService(logger: try resolver.resolve(Logger.self, tag: "audit"))
      }
    }.build()
  }

  @Test("The tag a request asked with, even when the untagged binding served it")
  func requestedTag() throws {
    let container = try container()
    #expect(try container.resolve(Logger.self, tag: "audit").category == "\"audit\"")
    #expect(try container.resolve(Logger.self).category == "app")
  }

  @Test("The type an instance is injected into; never the consumer's own tag")
  func consumer() throws {
    let container = try container()
    #expect(try container.resolve(FeedService.self).logger.category == "FeedService")
    // The consumer's tag ("audited") is not passed on: the logger sees the tag it was asked with.
    #expect(
      try container.resolve(FeedService.self, tag: "audited").logger.category == "\"audit\"")
  }

  @Test("The path from the top-level request")
  func path() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(String.self) { resolver in
        resolver.path.map(\.description).joined(separator: " → ")
      }
      registrar.bind(Int.self) { resolver in (try resolver.resolve(String.self)).count }
      registrar.bind(Double.self) { resolver in
        Double(try resolver.resolve(String.self).count)
      }
    }.build()
    #expect(try container.resolve(String.self) == "String")
    #expect(try container.resolve(Int.self) == "Int → String".count)
  }

  @Test("A Provider makes instances of a binding with runtime arguments")
  func providerWithArguments() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Download.self) { (_, url: String, retries: Int) in
        Download(url: url, retries: retries)
      }
      registrar.bind(Downloads.self, to: Downloads.init(make:))
    }.build()
    let downloads = try container.resolve(Downloads.self)
    let download = try downloads.make.get(arguments: "https://example.com", 3)
    #expect(download.url == "https://example.com" && download.retries == 3)
    let error = #expect(throws: ResolutionError.self) { try downloads.make.get(arguments: 3) }
    #expect(error?.code == .argumentMismatch)
  }
}
