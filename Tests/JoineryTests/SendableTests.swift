import Joinery
import Testing

// Compile-only: a global container is a plain `static let` in Swift 6 mode, with no
// `nonisolated(unsafe)`, `@preconcurrency` or `@unchecked`.
private enum AppDependencies {
  static let container = try? ContainerBuilder(
    Bindings { registrar in registrar.bind(Int.self, instance: 42) }
  ).build()
}

private actor Consumer {
  let container: Container
  init(container: Container) { self.container = container }
  func answer() throws -> Int { try container.resolve() }
}

private func requireSendable<T: Sendable>(_: T.Type) {}

@Suite("Sendable public types")
struct SendableTests {
  @Test("Public value types and the container can cross isolation domains")
  func sendable() async throws {
    requireSendable(Container.self)
    requireSendable(Lifetime.self)
    requireSendable(CacheGroup.self)
    requireSendable(BindingTag.self)
    requireSendable(BindingKey.self)
    requireSendable(BindingInfo.self)
    requireSendable(ResolutionError.self)
    requireSendable(BuildError.self)
    requireSendable(Diagnostic.self)
    let container = try #require(AppDependencies.container)
    let answer = try await Consumer(container: container).answer()
    #expect(answer == 42)
    let fromTask = try await Task.detached { try container.resolve(Int.self) }.value
    #expect(fromTask == 42)
  }
}
