import Joinery
import Testing

// A build that fails after creating eager instances hands no container to anyone, so nobody
// could shut it down: the build disposes what it made itself.

private final class Pool: Sendable {}
private final class Broken: Sendable {}
private struct OpenFailed: Error {}

@Suite("A failed build disposes the instances it made")
struct FailedBuildDisposalTests {
  /// An eager pool with a disposer, a handed-over instance with one, and an eager binding
  /// whose factory throws.
  static func bindings(_ disposed: TestAtomic<Int>, async: Bool) -> Bindings {
    Bindings { registrar in
      registrar.bind(
        Pool.self, lifetime: .persistent(eager: true),
        dispose: { _ in disposed.add(1, ordering: .releasing) }
      ) { _ in Pool() }
      registrar.bind(
        Pool.self, tag: "handed", dispose: { _ in disposed.add(1, ordering: .releasing) },
        instance: Pool())
      if async {
        registrar.bindAsync(Broken.self, lifetime: .persistent(eager: true)) { _ in
          throw OpenFailed()
        }
      } else {
        registrar.bind(Broken.self, lifetime: .persistent(eager: true)) { _ in
          throw OpenFailed()
        }
      }
    }
  }

  @Test("build(): the eager instances made before the failure are disposed")
  func syncBuild() async throws {
    let disposed = TestAtomic<Int>(0)
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(Self.bindings(disposed, async: false)).build()
    }
    #expect(error?.diagnostics.map(\.code) == [.eagerCreationFailed])
    // build() cannot await a disposer: it disposes in a task of its own.
    #expect(try await eventually(disposed, reaches: 2) == 2)
  }

  @Test("buildAsync(): disposed before the error is thrown, sync and async eager bindings alike")
  func asyncBuild() async throws {
    let disposed = TestAtomic<Int>(0)
    let error = await #expect(throws: BuildError.self) {
      try await ContainerBuilder(Self.bindings(disposed, async: true)).buildAsync()
    }
    #expect(error?.diagnostics.map(\.code) == [.eagerCreationFailed])
    #expect(disposed.load(ordering: .acquiring) == 2)
  }

  @Test("makeChild: the child's eager instances are disposed, the parent's kept")
  func child() async throws {
    let parentDisposed = TestAtomic<Int>(0)
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(
          Pool.self, tag: "parent", lifetime: .persistent(eager: true),
          dispose: { _ in parentDisposed.add(1, ordering: .releasing) }
        ) { _ in Pool() }
      }
    ).build()
    let disposed = TestAtomic<Int>(0)
    #expect(throws: BuildError.self) {
      try parent.makeChild(Self.bindings(disposed, async: false))
    }
    #expect(try await eventually(disposed, reaches: 2) == 2)
    #expect(parentDisposed.load(ordering: .acquiring) == 0)
    #expect(!parent.isShutDown)
    _ = try parent.resolve(Pool.self, tag: "parent")
    try await parent.shutdown()
    #expect(parentDisposed.load(ordering: .acquiring) == 1)
  }
}
