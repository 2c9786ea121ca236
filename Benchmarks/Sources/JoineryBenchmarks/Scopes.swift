import Foundation
import Joinery
import Swinject

// A server request: a handler over two request-scoped objects (a unit of work and an audit
// trail, both over the one persistent pool), the scope made and closed around it.
final class RequestPool: @unchecked Sendable { init() {} }
final class RequestWork: @unchecked Sendable {
  let pool: RequestPool
  init(pool: RequestPool) { self.pool = pool }
}
final class RequestAudit: @unchecked Sendable {
  let work: RequestWork
  init(work: RequestWork) { self.work = work }
}
final class RequestHandler: @unchecked Sendable {
  let work: RequestWork
  let audit: RequestAudit
  init(work: RequestWork, audit: RequestAudit) {
    self.work = work
    self.audit = audit
  }
}

enum ScopeContainers {
  static let root: Joinery.Container = {
    try! ContainerBuilder().adding { registrar in
      registrar.bind(RequestPool.self, lifetime: .persistent, to: RequestPool.init)
      registrar.bind(RequestWork.self, lifetime: .scoped, to: RequestWork.init(pool:))
      registrar.bind(RequestAudit.self, lifetime: .scoped, to: RequestAudit.init(work:))
      registrar.bind(RequestHandler.self, to: RequestHandler.init(work:audit:))
    }.build()
  }()

  /// The same request with async bindings (`bindAsync`), resolved with `resolveAsync`.
  static let asyncRoot: Joinery.Container = {
    try! ContainerBuilder().adding { registrar in
      registrar.bind(RequestPool.self, lifetime: .persistent, to: RequestPool.init)
      registrar.bindAsync(RequestWork.self, lifetime: .scoped, to: RequestWork.init(pool:))
      registrar.bindAsync(RequestAudit.self, lifetime: .scoped, to: RequestAudit.init(work:))
      registrar.bindAsync(RequestHandler.self, to: RequestHandler.init(work:audit:))
    }.build()
  }()

  /// The same, the way it had to be done before scopes: a child container per request whose
  /// assembly re-declares the request's objects as persistent.
  static let childRoot: Joinery.Container = {
    try! ContainerBuilder().adding { registrar in
      registrar.bind(RequestPool.self, lifetime: .persistent, to: RequestPool.init)
    }.build()
  }()
  struct RequestAssembly: Joinery.Assembly {
    func register(in registrar: inout Registrar) {
      registrar.bind(RequestWork.self, lifetime: .persistent, to: RequestWork.init(pool:))
      registrar.bind(RequestAudit.self, lifetime: .persistent, to: RequestAudit.init(work:))
      registrar.bind(RequestHandler.self, to: RequestHandler.init(work:audit:))
    }
  }

  /// Swinject's way: a child container per request with `.container`-scoped registrations.
  nonisolated(unsafe) static let swinjectRoot: Swinject.Container = {
    let container = Swinject.Container()
    container.register(RequestPool.self) { _ in RequestPool() }.inObjectScope(.container)
    return container
  }()
}

@inline(never) func handWrittenRequest(_ pool: RequestPool) -> RequestHandler {
  let work = RequestWork(pool: pool)
  return RequestHandler(work: work, audit: RequestAudit(work: work))
}

/// Run a closure to completion on the cooperative pool from synchronous code.
func awaitClose(_ scope: Joinery.Scope) {
  blockingAsync { try! await scope.close() }
}

func scopeRows() -> [Row] {
  let root = ScopeContainers.root
  let asyncRoot = ScopeContainers.asyncRoot
  let childRoot = ScopeContainers.childRoot
  let swinjectRoot = ScopeContainers.swinjectRoot
  let pool = opaque(try! root.resolve(RequestPool.self))
  _ = try! asyncRoot.resolve(RequestPool.self)
  _ = try! childRoot.resolve(RequestPool.self)
  _ = swinjectRoot.resolve(RequestPool.self)
  return [
    Row(
      title: "request scope: make, resolve a handler over 2 scoped objects, close",
      floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(handWrittenRequest(opaque(pool))) }),
        Variant(
          name: "Joinery scope",
          run: { iterations in
            blockingAsync {
              for _ in 0..<iterations {
                let scope = root.makeScope()
                blackHole(try! scope.resolve(RequestHandler.self))
                try! await scope.close()
              }
            }
          }),
        Variant(
          name: "Joinery scope, async bindings",
          run: { iterations in
            blockingAsync {
              for _ in 0..<iterations {
                let scope = asyncRoot.makeScope()
                blackHole(try! await scope.resolveAsync(RequestHandler.self))
                try! await scope.close()
              }
            }
          }),
        Variant(
          name: "Joinery makeChild",
          run: loop {
            let child = try! childRoot.makeChild(ScopeContainers.RequestAssembly())
            blackHole(try! child.resolve(RequestHandler.self))
          }),
        Variant(
          name: "Swinject child",
          run: loop {
            let child = Swinject.Container(parent: swinjectRoot)
            child.register(RequestWork.self) { r in RequestWork(pool: r.resolve(RequestPool.self)!)
            }
            .inObjectScope(.container)
            child.register(RequestAudit.self) { r in
              RequestAudit(work: r.resolve(RequestWork.self)!)
            }.inObjectScope(.container)
            child.register(RequestHandler.self) { r in
              RequestHandler(
                work: r.resolve(RequestWork.self)!, audit: r.resolve(RequestAudit.self)!)
            }
            blackHole(child.resolve(RequestHandler.self)!)
          }),
      ])
  ]
}
