import Joinery
import Testing

// Where child containers meet the other features: scopes, the graph lifetime, shutdown, eager
// creation and async bindings. A child resolves its parent's bindings as the parent would, but
// the request — its scope, its resolution — is the child's.

private final class Unit: Sendable {}
private final class Handler: Sendable {
  let unit: Unit
  init(unit: Unit) { self.unit = unit }
}
private final class Session: Sendable {
  let unit: Unit
  init(unit: Unit) { self.unit = unit }
}
private final class Node: Sendable {}
private final class Leaf: Sendable {
  let node: Node
  init(node: Node) { self.node = node }
}
private final class Tree: Sendable {
  let node: Node
  let leaf: Leaf
  init(node: Node, leaf: Leaf) {
    self.node = node
    self.leaf = leaf
  }
}
private final class Pool: Sendable {}
private final class Warm: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}

@Suite("Child containers with scopes, graphs, shutdown and async bindings")
struct ChildScopeSeamTests {
  @Test("A scope made from a child serves the parent's scoped binding once per scope")
  func parentScopedInChildScope() async throws {
    let disposed = TestAtomic<Int>(0)
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(
          Unit.self, lifetime: .scoped, dispose: { _ in disposed.add(1, ordering: .relaxed) }
        ) { _ in Unit() }
      }
    ).build()
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bind(Handler.self, to: Handler.init(unit:))
        registrar.bind(Session.self, lifetime: .scoped, to: Session.init(unit:))
      })
    let first = child.makeScope()
    let handler = try first.resolve(Handler.self)
    #expect(try first.resolve(Handler.self).unit === handler.unit)
    #expect(try first.resolve(Session.self).unit === handler.unit)
    #expect(try first.resolve(Unit.self) === handler.unit)
    let second = child.makeScope()
    #expect(try second.resolve(Handler.self).unit !== handler.unit)
    try await first.close()
    #expect(disposed.load(ordering: .relaxed) == 1)
    try await second.close()
    #expect(disposed.load(ordering: .relaxed) == 2)
    // Outside a scope, the child says a scope is needed, as the parent would.
    let error = try #require(throws: ResolutionError.self) { try child.resolve(Handler.self) }
    #expect(error.code == .scopeRequired)
  }

  @Test("One resolution through a child shares the parent's graph instance across its levels")
  func parentGraphInChildResolution() throws {
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Node.self, lifetime: .graph) { _ in Node() }
      }
    ).build()
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bind(Leaf.self, to: Leaf.init(node:))
        registrar.bind(Tree.self, to: Tree.init(node:leaf:))
      })
    let tree = try child.resolve(Tree.self)
    #expect(tree.leaf.node === tree.node)
    #expect(try child.resolve(Tree.self).node !== tree.node)
  }

  @Test("A child of a shut-down parent refuses requests, in its scopes too")
  func parentShutdownReachesChildScopes() async throws {
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Unit.self, lifetime: .scoped) { _ in Unit() }
      }
    ).build()
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bind(Handler.self, to: Handler.init(unit:))
      })
    let scope = child.makeScope()
    _ = try scope.resolve(Handler.self)
    try await parent.shutdown()
    #expect(child.isShutDown)
    let error = try #require(throws: ResolutionError.self) {
      try child.makeScope().resolve(Handler.self)
    }
    #expect(error.code == .shutDown)
    try await scope.close()
  }

  @Test("An eager persistent in a child is made by makeChild, on the parent's shared instance")
  func eagerChildOnParent() throws {
    let made = TestAtomic<Int>(0)
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Pool.self, lifetime: .persistent) { _ in
          made.add(1, ordering: .relaxed)
          return Pool()
        }
      }
    ).build()
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bind(Warm.self, lifetime: .persistent(eager: true), to: Warm.init(pool:))
      })
    #expect(child.hasInstance(of: Warm.self))
    #expect(try child.resolve(Warm.self).pool === parent.resolve(Pool.self))
    #expect(made.load(ordering: .relaxed) == 1)
  }

  @Test("A parent's async scoped binding awaited in a child's scope: one instance per scope")
  func parentAsyncScopedInChildScope() async throws {
    let made = TestAtomic<Int>(0)
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Unit.self, lifetime: .scoped) { _ in
          made.add(1, ordering: .relaxed)
          try await Task.sleep(milliseconds: 5)
          return Unit()
        }
      }
    ).build()
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bindAsync(Handler.self, to: Handler.init(unit:))
      })
    let scope = child.makeScope()
    async let one = scope.resolveAsync(Handler.self)
    async let two = scope.resolveAsync(Handler.self)
    let (a, b) = try await (one, two)
    #expect(a.unit === b.unit)
    #expect(made.load(ordering: .relaxed) == 1)
    let other = child.makeScope()
    #expect(try await other.resolveAsync(Handler.self).unit !== a.unit)
    try await scope.close()
    try await other.close()
  }
}
