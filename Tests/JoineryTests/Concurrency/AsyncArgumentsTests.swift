import Joinery
import Testing

private struct Thumbnail: Sendable, Equatable {
  let url: String
  let size: Int
  let renderer: String
}

@Suite("Async factories with runtime arguments (Guise's async resolution)")
struct AsyncArgumentsTests {
  private func container() throws -> Container {
    try ContainerBuilder(
      InlineRegister { registrar in
        registrar.bind(String.self, instance: "metal")
        registrar.bindAsync(Thumbnail.self, dependsOn: [BindingKey(String.self)]) {
          (resolver, url: String, size: Int) in
          try await Task.sleep(milliseconds: 1)
          return Thumbnail(url: url, size: size, renderer: try resolver.resolve(String.self))
        }
        registrar.bindAsync(Int.self) { (_, a: Int, b: Int, c: Int) in a + b + c }
      }
    ).build()
  }

  @Test("One to three arguments, each resolve a new instance")
  func arguments() async throws {
    let container = try container()
    let thumbnail = try await container.resolveAsync(Thumbnail.self, arguments: "a.png", 64)
    #expect(thumbnail == Thumbnail(url: "a.png", size: 64, renderer: "metal"))
    #expect(try await container.resolveAsync(Int.self, arguments: 1, 2, 3) == 6)
  }

  @Test("Wrong argument types, and a synchronous resolve, are clear errors")
  func errors() async throws {
    let container = try container()
    let mismatch = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsync(Thumbnail.self, arguments: 64, "a.png")
    }
    #expect(mismatch?.code == .argumentMismatch)
    let sync = #expect(throws: ResolutionError.self) {
      try container.resolve(Thumbnail.self, arguments: "a.png", 64)
    }
    #expect(sync?.code == .asyncBinding)
  }

  @Test("A child container resolves its parent's async argument binding")
  func child() async throws {
    let child = try container().makeChild(InlineRegister { $0.bind(Double.self, instance: 1) })
    let sum = try await child.resolveAsync(Int.self, arguments: 1, 1, 1)
    #expect(sum == 3)
  }
}
