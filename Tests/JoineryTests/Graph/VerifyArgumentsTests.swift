import Joinery
import Testing

private struct Download: Sendable {
  let url: String
  let retries: Int
}
private struct Refused: Error {}

@Suite("verify(arguments:) creates argument bindings with sample arguments (Dip's validate(args))")
struct VerifyArgumentsTests {
  private func container() throws -> Container {
    try ContainerBuilder().adding { registrar in
      registrar.bind(Download.self) { (_, url: String, retries: Int) in
        Download(url: url, retries: retries)
      }
      registrar.bind(Download.self, tag: "strict") { (_, url: String) in
        guard url.hasPrefix("https") else { throw Refused() }
        return Download(url: url, retries: 0)
      }
    }.build()
  }

  @Test("With samples, argument bindings are created and verified; without, skipped")
  func samples() throws {
    let container = try container()
    let bare = try container.verify()
    #expect(bare.skipped.count == 2)

    var samples = SampleArguments()
    samples.add(Download.self, arguments: "https://example.com", 3)
    samples.add(Download.self, tag: "strict", arguments: "https://example.com")
    let report = try container.verify(arguments: samples)
    #expect(report.skipped.isEmpty)
    #expect(report.verified.count == 2)
  }

  @Test("A sample the factory refuses is a verification failure naming the binding")
  func failingSample() throws {
    var samples = SampleArguments()
    samples.add(Download.self, tag: "strict", arguments: "http://plain")
    let error = #expect(throws: VerificationError.self) {
      try container().verify(arguments: samples)
    }
    #expect(error?.failures.first?.code == .factoryFailed)
    #expect(error?.failures.first?.underlyingError is Refused)
  }
}
