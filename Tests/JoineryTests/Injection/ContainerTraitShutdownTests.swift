import Joinery
import JoineryTesting
import Testing

private final class Pool: Sendable {
  let closed = Locked(false)
}

@Suite("The .container trait shuts its container down")
struct ContainerTraitShutdownTests {
  @Test("The trait shuts its container down after the test: the test's disposers run")
  func shutsDownAfterEachTest() async throws {
    let made = Locked<Pool?>(nil)
    let trait = ContainerTrait.container {
      try ContainerBuilder().adding { registrar in
        registrar.bind(
          Pool.self, lifetime: .persistent,
          dispose: { pool in pool.closed.withLock { $0 = true } },
          to: Pool.init)
      }.build()
    }
    let test = try #require(Test.current)
    try await trait.provideScope(for: test, testCase: nil) {
      let pool = try Container.current!.resolve(Pool.self)
      made.withLock { $0 = pool }
      #expect(!pool.closed.withLock { $0 })
    }
    let pool = try #require(made.withLock { $0 })
    #expect(pool.closed.withLock { $0 })
  }
}
