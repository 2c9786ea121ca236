import Joinery
import Testing

// ServerApps.md's graph: an eager async pool, a scoped async connection, an async query over
// it, a scoped unit of work and a value each request provides.
private struct RequestInfo: Sendable { let id: Int }
private actor Pool {
  func lease() -> Connection { Connection() }
}
private final class Connection: Sendable {}
private final class OrderQuery: Sendable {
  let connection: Connection
  init(connection: Connection) { self.connection = connection }
}
private final class UnitOfWork: Sendable {
  let info: RequestInfo
  init(info: RequestInfo) { self.info = info }
}
private final class AuditTrail: Sendable {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}

private func serverGraph() async throws -> Container {
  try await ContainerBuilder().adding { registrar in
    registrar.bindAsync(Pool.self, lifetime: .persistent(eager: true)) { _ in Pool() }
    registrar.bindAsync(
      Connection.self, lifetime: .scoped, dependsOn: [BindingKey(Pool.self)]
    ) { resolver in try await resolver.resolve(Pool.self).lease() }
    registrar.bindAsync(OrderQuery.self, to: OrderQuery.init(connection:))
    registrar.bindScopeValue(RequestInfo.self)
    registrar.bind(UnitOfWork.self, lifetime: .scoped, to: UnitOfWork.init(info:))
    registrar.bind(AuditTrail.self, to: AuditTrail.init(work:))
  }.buildAsync()
}

@Suite("verify() and verifyAsync() on scoped bindings")
struct VerifyScopedTests {
  @Test("verifyAsync() passes on the server graph: async scoped bindings are made in a scope")
  func asyncScopedVerify() async throws {
    let container = try await serverGraph()
    // As ServerApps.md declares it: the connection asks the eager pool synchronously.
    let report = try await container.verifyAsync()
    let verified = report.verified.map { "\($0.type)" }
    #expect(verified.contains("Connection"))
    #expect(verified.contains("OrderQuery"))
    // Without a sample, what needs the request's value is skipped, not failed.
    #expect(report.skipped.map { "\($0.key.type)" }.contains("UnitOfWork"))
  }

  @Test("Scope values given as samples verify what depends on them, sync and async")
  func sampledScopeValues() async throws {
    let container = try await serverGraph()
    var samples = SampleArguments()
    samples.addScopeValue(RequestInfo(id: 0))
    let report = try await container.verifyAsync(arguments: samples)
    #expect(report.verified.map { "\($0.type)" }.contains("AuditTrail"))
    #expect(report.verified.map { "\($0.type)" }.contains("UnitOfWork"))
    #expect(!report.skipped.map { "\($0.key.type)" }.contains("UnitOfWork"))
    let sync = try container.verify(arguments: samples)
    #expect(sync.verified.map { "\($0.type)" }.contains("UnitOfWork"))
  }
}

@Suite("Argument bindings over scoped services: verified in the scope, resolved in the caller's")
struct ScopedArgumentsTests {
  private struct Receipt: Sendable {
    let work: UnitOfWork
    let number: Int
  }

  private func container() throws -> Container {
    try ContainerBuilder()
      .adding { registrar in
        registrar.bindScopeValue(RequestInfo.self)
        registrar.bind(UnitOfWork.self, lifetime: .scoped, to: UnitOfWork.init(info:))
        registrar.bindAsync(Receipt.self, tag: "async") { (resolver, number: Int) in
          Receipt(work: try resolver.resolve(UnitOfWork.self), number: number)
        }
        registrar.bind(Receipt.self) { (resolver, number: Int) in
          Receipt(work: try resolver.resolve(UnitOfWork.self), number: number)
        }
      }
      .build()
  }

  @Test("verify() and verifyAsync() make sampled argument bindings in their scope")
  func verified() async throws {
    let container = try container()
    var samples = SampleArguments()
    samples.addScopeValue(RequestInfo(id: 0))
    samples.add(Receipt.self, arguments: 1)
    samples.add(Receipt.self, tag: "async", arguments: 1)
    // A scope value is never made by the container: it is listed as skipped.
    let report = try await container.verifyAsync(arguments: samples)
    #expect(report.skipped.map(\.key) == [BindingKey(RequestInfo.self)])
    #expect(report.verified.count == 3)
    let synchronous = try container.verify(arguments: samples)
    #expect(
      Set(synchronous.skipped.map(\.key))
        == [
          BindingKey(Receipt.self, tag: "async", argumentTypes: Int.self),
          BindingKey(RequestInfo.self),
        ])
    #expect(synchronous.verified.contains(BindingKey(Receipt.self, argumentTypes: Int.self)))
  }

  @Test("A scope's resolve with arguments, sync or awaited, gets that scope's instances")
  func resolvedInScope() async throws {
    let container = try container()
    let scope = try container.makeScope { $0.provide(RequestInfo(id: 7)) }
    let work = try scope.resolve(UnitOfWork.self)
    #expect(try scope.resolve(Receipt.self, arguments: 1).work === work)
    #expect(try await scope.resolveAsync(Receipt.self, arguments: 2).work === work)
    #expect(try await scope.resolveAsync(Receipt.self, tag: "async", arguments: 3).work === work)
    // Outside any scope, the async one is refused as the synchronous one is.
    let error = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsync(Receipt.self, tag: "async", arguments: 4)
    }
    #expect(error?.code == .scopeRequired)
  }
}
