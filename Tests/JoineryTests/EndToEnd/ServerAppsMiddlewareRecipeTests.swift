import Joinery
import Testing

// The Server Apps article's middleware body, with the framework taken out: make the scope with
// the request's values, run the request in it, commit the unit of work only if the request
// made one, close however it ended. The commit line is written as the article writes it, and
// must work whether the unit of work is bound synchronously or with `bindAsync`.

private struct Visit: Sendable {
  let user: String
}

private actor Ledger {
  private(set) var journal: [String] = []
  func note(_ line: String) { journal.append(line) }
}

private actor UnitOfWork {
  let ledger: Ledger
  private var lines: [String] = []
  private var committed = false

  init(ledger: Ledger) { self.ledger = ledger }

  func stage(_ line: String) { lines.append(line) }

  func commit() async {
    committed = true
    await ledger.note("commit \(lines.joined(separator: ","))")
  }

  func rollBackIfOpen() async {
    if !committed { await ledger.note("rollback") }
  }
}

private struct Checkout: Sendable {
  let visit: Visit
  let work: UnitOfWork
  func run(item: String) async { await work.stage("\(visit.user):\(item)") }
}

/// The article's lines, between the framework's `next` and its error mapping.
private func handle(
  _ visit: Visit, in container: Container, next: @Sendable (Scope) async throws -> String
) async throws -> String {
  let scope = try container.makeScope { values in values.provide(visit) }
  return try await scope.run { scope in
    let response = try await next(scope)
    if scope.hasInstance(of: UnitOfWork.self) {
      try await scope.resolveAsync(UnitOfWork.self).commit()
    }
    return response
  }
}

@Suite("The Server Apps middleware recipe")
struct ServerAppsMiddlewareRecipeTests {
  @Test("Commits a unit of work the request made, sync or async; rolls back a failed one")
  func commitLine() async throws {
    for async in [false, true] {
      let ledger = Ledger()
      let container = try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Ledger.self, instance: ledger)
          registrar.bindScopeValue(Visit.self)
          if async {
            registrar.bindAsync(
              UnitOfWork.self, lifetime: .scoped, dispose: { await $0.rollBackIfOpen() },
              to: UnitOfWork.init(ledger:))
            registrar.bindAsync(Checkout.self, to: Checkout.init(visit:work:))
          } else {
            registrar.bind(
              UnitOfWork.self, lifetime: .scoped, dispose: { await $0.rollBackIfOpen() },
              to: UnitOfWork.init(ledger:))
            registrar.bind(Checkout.self, to: Checkout.init(visit:work:))
          }
        }
      ).buildOrRecord()
      // A request that stages an order: committed once.
      let answer = try await handle(Visit(user: "ada"), in: container) { scope in
        try await scope.resolveAsync(Checkout.self).run(item: "tea")
        return "201"
      }
      #expect(answer == "201")
      // A request that never touches the unit of work: nothing committed, nothing rolled back.
      _ = try await handle(Visit(user: "bob"), in: container) { _ in "200" }
      // A request that fails after staging: rolled back by the disposer, the error unchanged.
      await #expect(throws: CancellationError.self) {
        try await handle(Visit(user: "eve"), in: container) { scope in
          try await scope.resolveAsync(Checkout.self).run(item: "cake")
          throw CancellationError()
        }
      }
      #expect(await ledger.journal == ["commit ada:tea", "rollback"], "async: \(async)")
    }
  }
}
