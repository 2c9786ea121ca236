import Joinery
import Testing

// One error path: a failure met by the async engine is reported as the synchronous engine
// reports it — the same code, the same path of requests, the same explanation.

private protocol Shape: Sendable {}
private struct Square: Shape {}
private final class Node: Sendable {
  let next: Node?
  init(next: Node?) { self.next = next }
}
private final class Top: Sendable {
  init(_: Bottom) {}
}
private final class Bottom: Sendable {}
private final class PerRequest: Sendable {}
private struct Boom: Error {}

/// The same bindings declared with a synchronous factory or with an async one.
private func container(
  async: Bool, maximumDepth: Int = 200,
  _ declare: @escaping @Sendable (inout Registrar, Bool) -> Void
) throws -> Container {
  var builder = ContainerBuilder(Bindings { registrar in declare(&registrar, async) })
  builder.maximumResolutionDepth = maximumDepth
  return try builder.buildOrRecord()
}

/// The error a request throws, from the synchronous or the async engine.
private func failure<T: Sendable>(
  of _: T.Type, tag: Int? = nil, in container: Container, async: Bool
) async -> ResolutionError? {
  do throws(ResolutionError) {
    switch (async, tag) {
    case (false, nil): _ = try container.resolve(T.self)
    case (false, let tag?): _ = try container.resolve(T.self, tag: tag)
    case (true, nil): _ = try await container.resolveAsync(T.self)
    case (true, let tag?): _ = try await container.resolveAsync(T.self, tag: tag)
    }
    return nil
  } catch {
    return error
  }
}

/// Expects the two engines' errors to agree on everything but where the bindings were declared.
private func expectAlike(
  _ sync: ResolutionError?, _ async: ResolutionError?, explaining phrase: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let sync = try #require(sync, sourceLocation: sourceLocation)
  let async = try #require(async, sourceLocation: sourceLocation)
  #expect(sync.code == async.code, sourceLocation: sourceLocation)
  #expect(sync.requested == async.requested, sourceLocation: sourceLocation)
  #expect(sync.binding?.key == async.binding?.key, sourceLocation: sourceLocation)
  #expect(
    sync.path.map(\.requested) == async.path.map(\.requested), sourceLocation: sourceLocation)
  #expect(
    sync.path.map { $0.binding?.key } == async.path.map { $0.binding?.key },
    sourceLocation: sourceLocation)
  #expect(
    sync.debugDescription.contains(phrase), "\(sync.debugDescription)",
    sourceLocation: sourceLocation)
  #expect(
    async.debugDescription.contains(phrase), "\(async.debugDescription)",
    sourceLocation: sourceLocation)
}

@Suite("A failure reads the same from either engine")
struct ErrorParityTests {
  @Test("Too deep a chain")
  func depthLimit() async throws {
    let declare: @Sendable (inout Registrar, Bool) -> Void = { registrar, async in
      for level in 0..<10 {
        if async {
          registrar.bindAsync(Node.self, tag: level) { resolver in
            Node(next: try await resolver.resolveAsync(Node.self, tag: level + 1))
          }
        } else {
          registrar.bind(Node.self, tag: level) { resolver in
            Node(next: try resolver.resolve(Node.self, tag: level + 1))
          }
        }
      }
    }
    let sync = try container(async: false, maximumDepth: 5, declare)
    let async = try container(async: true, maximumDepth: 5, declare)
    try expectAlike(
      await failure(of: Node.self, tag: 0, in: sync, async: false),
      await failure(of: Node.self, tag: 0, in: async, async: true),
      explaining: "The chain is more than 5 bindings deep.")
  }

  @Test("A factory that throws, below another binding")
  func factoryFailed() async throws {
    let declare: @Sendable (inout Registrar, Bool) -> Void = { registrar, async in
      if async {
        registrar.bindAsync(Top.self) { resolver in Top(try await resolver.resolveAsync()) }
        registrar.bindAsync(Bottom.self) { _ in throw Boom() }
      } else {
        registrar.bind(Top.self) { resolver in Top(try resolver.resolve()) }
        registrar.bind(Bottom.self) { _ in throw Boom() }
      }
    }
    let sync = await failure(of: Top.self, in: try container(async: false, declare), async: false)
    let async = await failure(of: Top.self, in: try container(async: true, declare), async: true)
    try expectAlike(sync, async, explaining: "Boom")
    #expect(sync?.underlyingError is Boom)
    #expect(async?.underlyingError is Boom)
    #expect(async?.path.map { "\($0.requested.type)" }.joined(separator: " → ") == "Top → Bottom")
  }

  @Test("A scoped binding requested outside a scope")
  func scopeRequired() async throws {
    let declare: @Sendable (inout Registrar, Bool) -> Void = { registrar, async in
      if async {
        registrar.bindAsync(PerRequest.self, lifetime: .scoped) { _ in PerRequest() }
      } else {
        registrar.bind(PerRequest.self, lifetime: .scoped) { _ in PerRequest() }
      }
    }
    try expectAlike(
      await failure(of: PerRequest.self, in: try container(async: false, declare), async: false),
      await failure(of: PerRequest.self, in: try container(async: true, declare), async: true),
      explaining: "one instance per scope, and this request was made in none")
  }

  @Test("A weak lifetime whose factory made a value")
  func transientValueType() async throws {
    let declare: @Sendable (inout Registrar, Bool) -> Void = { registrar, async in
      if async {
        registrar.bindAsync((any Shape).self, lifetime: .transient) { _ in Square() }
      } else {
        registrar.bind((any Shape).self, lifetime: .transient) { _ in Square() }
      }
    }
    try expectAlike(
      await failure(of: (any Shape).self, in: try container(async: false, declare), async: false),
      await failure(of: (any Shape).self, in: try container(async: true, declare), async: true),
      explaining: "which is a value type")
  }

  @Test("A request after shutdown")
  func shutDown() async throws {
    let declare: @Sendable (inout Registrar, Bool) -> Void = { registrar, async in
      if async {
        registrar.bindAsync(Bottom.self, lifetime: .persistent) { _ in Bottom() }
      } else {
        registrar.bind(Bottom.self, lifetime: .persistent) { _ in Bottom() }
      }
    }
    let sync = try container(async: false, declare)
    let async = try container(async: true, declare)
    try await sync.shutdown()
    try await async.shutdown()
    try expectAlike(
      await failure(of: Bottom.self, in: sync, async: false),
      await failure(of: Bottom.self, in: async, async: true),
      explaining: "The container was shut down")
  }
}
