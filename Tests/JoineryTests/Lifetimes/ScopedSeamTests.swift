import Joinery
import Testing

private final class Work: Sendable {}
private protocol Working: Sendable {}
extension Work: Working {}
private final class Handler: Sendable {
  let work: Work
  init(work: Work) { self.work = work }
}
private final class AsyncHandler: Sendable {
  let work: Work
  init(work: Work) async { self.work = work }
}
private final class Plugin: Sendable {
  let work: Work
  init(work: Work) { self.work = work }
}

// Where the scoped lifetime meets the other features: async bindings and resolves, tag fallback,
// forwarding, multi-bindings, initCompleted steps and disposal, Lazy. In each, a scope's instance
// is the one every request of that scope sees, and no other scope's.

@Suite("The scoped lifetime with async, fallback, forwards, contributions and initCompleted")
struct ScopedSeamTests {
  @Test("Synchronous and async resolves in one scope share its synchronous scoped instance")
  func syncAndAsyncShareScopedInstance() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Work.self, lifetime: .scoped, to: Work.init)
        registrar.bindAsync(AsyncHandler.self, to: AsyncHandler.init(work:))
        registrar.bind(Handler.self, to: Handler.init(work:))
      }
    ).build()
    let scope = container.makeScope()
    let a = try await scope.resolveAsync(AsyncHandler.self)
    let b = try scope.resolve(Handler.self)
    let c = try await scope.resolveAsync(Work.self)
    #expect(a.work === b.work)
    #expect(c === b.work)
    let other = container.makeScope()
    #expect(try other.resolve(Work.self) !== c)
    try await scope.close()
    try await other.close()
  }

  @Test("Two async lets in one scope share its async scoped instance")
  func asyncLetsShare() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Work.self, lifetime: .scoped) { _ in Work() }
        registrar.bindAsync(AsyncHandler.self, to: AsyncHandler.init(work:))
      }
    ).build()
    let scope = container.makeScope()
    async let x = scope.resolveAsync(AsyncHandler.self)
    async let y = scope.resolveAsync(AsyncHandler.self)
    let (p, q) = try await (x, y)
    #expect(p.work === q.work)
    try await scope.close()
  }

  @Test("A tagged request's fallback, a forward and contributions get the scope's one instance")
  func fallbackAndForwardKeepScopedIdentity() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Work.self, lifetime: .scoped, to: Work.init)
        registrar.bind((any Working).self, forwardingTo: Work.self)
        registrar.contribute(Plugin.self, to: Plugin.init(work:))
        registrar.contribute(Plugin.self, to: Plugin.init(work:))
      }
    ).build()
    let scope = container.makeScope()
    let w = try scope.resolve(Work.self)
    #expect(try scope.resolve(Work.self, tag: "x") === w)
    #expect(try scope.resolve((any Working).self) as AnyObject === w)
    let plugins = try scope.resolveAll(Plugin.self)
    #expect(plugins.count == 2)
    #expect(plugins.allSatisfy { $0.work === w })
    let other = container.makeScope()
    #expect(try other.resolve((any Working).self) as AnyObject !== w)
    try await scope.close()
    try await other.close()
  }

  @Test(
    "A scoped instance whose initCompleted step throws is disposed, and the scope makes another")
  func initCompletedFailingOnScoped() async throws {
    let disposed = TestAtomic<Int>(0)
    let made = TestAtomic<Int>(0)
    let fail = TestAtomic<Int>(1)
    struct Boom: Error {}
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(
          Work.self, lifetime: .scoped, dispose: { _ in disposed.add(1, ordering: .relaxed) }
        ) { _ in
          made.add(1, ordering: .relaxed)
          return Work()
        }
        registrar.initCompleted(Work.self) { _, _ in
          if fail.load(ordering: .relaxed) == 1 { throw Boom() }
        }
      }
    ).build()
    let scope = container.makeScope()
    let error = try #require(throws: ResolutionError.self) { try scope.resolve(Work.self) }
    #expect(error.code == .factoryFailed)
    #expect(error.underlyingError is Boom)
    #expect(error.description.hasPrefix("The initCompleted step of Work threw"))
    fail.store(0, ordering: .relaxed)
    let w = try scope.resolve(Work.self)
    #expect(try scope.resolve(Work.self) === w)
    #expect(made.load(ordering: .relaxed) == 2)
    try await scope.close()
    #expect(disposed.load(ordering: .relaxed) == 2)
  }

  @Test("A Lazy made in a scope and first read after the scope closed refuses")
  func lazyOfScopedAfterClose() async throws {
    final class Holder: Sendable {
      let lazy: Lazy<Work>
      init(lazy: Lazy<Work>) { self.lazy = lazy }
    }
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Work.self, lifetime: .scoped, to: Work.init)
        registrar.bind(Holder.self, to: Holder.init(lazy:))
      }
    ).build()
    let scope = container.makeScope()
    let holder = try scope.resolve(Holder.self)
    try await scope.close()
    let error = try #require(throws: ResolutionError.self) { try holder.lazy.get() }
    #expect(error.code == .shutDown)
    #expect(error.requested == BindingKey(Work.self))
  }

  @Test("200 scopes at once, each with a synchronous and an async request: never another's")
  func manyScopesConcurrentlyAsync() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Work.self, lifetime: .scoped, to: Work.init)
        registrar.bindAsync(AsyncHandler.self, to: AsyncHandler.init(work:))
      }
    ).build()
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<200 {
        group.addTask {
          let scope = container.makeScope()
          async let a = scope.resolveAsync(AsyncHandler.self)
          let b = try scope.resolve(Work.self)
          let ok = try await a.work === b
          try await scope.close()
          return ok
        }
      }
      for try await ok in group { #expect(ok) }
    }
  }
}
