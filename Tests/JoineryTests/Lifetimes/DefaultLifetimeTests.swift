import Joinery
import Testing

private final class Node {
  let id: Int
  init(id: Int) { self.id = id }
}

private final class Leaf {
  let node: Node
  init(node: Node) { self.node = node }
}

private final class Pair {
  let left: Leaf
  let right: Leaf
  init(left: Leaf, right: Leaf) {
    self.left = left
    self.right = right
  }
}

/// Binds a graph of `Pair` → two `Leaf`s → `Node`, none naming a lifetime.
private struct UnnamedLifetimes: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(Node.self) { Node(id: 1) }
    registrar.bind(Leaf.self, to: Leaf.init(node:))
    registrar.bind(Pair.self, to: Pair.init(left:right:))
  }
}

private struct GraphByDefault: Assembly {
  var defaultLifetime: Lifetime.For<Any>? { .graph }
  func register(in registrar: inout Registrar) {
    registrar.include(UnnamedLifetimes())
  }
}

private struct EphemeralByDefault: Assembly {
  var defaultLifetime: Lifetime.For<Any>? { .ephemeral }
  func register(in registrar: inout Registrar) {
    registrar.bind(Node.self) { Node(id: 2) }
  }
}

private struct EphemeralIncluder: Assembly {
  var defaultLifetime: Lifetime.For<Any>? { .ephemeral }
  func register(in registrar: inout Registrar) {
    registrar.include(UnnamedLifetimes())
  }
}

/// Says `.default`: the includer's default, as `nil` does.
private struct InheritingIncluder: Assembly {
  var defaultLifetime: Lifetime.For<Any>? { .default }
  func register(in registrar: inout Registrar) {
    registrar.include(UnnamedLifetimes())
  }
}

private struct LeafAndPair: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(Leaf.self, to: Leaf.init(node:))
    registrar.bind(Pair.self, to: Pair.init(left:right:))
  }
}

private func lifetime(of type: Any.Type, in container: Container) -> String? {
  container.bindings.first { $0.key.type == type }.map { "\($0.lifetime)" }
}

@Suite("Default lifetime per builder and per register")
struct DefaultLifetimeTests {
  @Test("Without any default, a binding naming no lifetime is ephemeral")
  func ephemeralWithoutDefault() throws {
    let container = try ContainerBuilder(UnnamedLifetimes()).build()
    let pair = try container.resolve(Pair.self)
    #expect(pair.left.node !== pair.right.node)
    #expect(lifetime(of: Node.self, in: container) == "ephemeral")
  }

  @Test("The builder's default applies to every register: graph shares within one resolve")
  func builderDefault() throws {
    let container = try ContainerBuilder(defaultLifetime: .graph, UnnamedLifetimes()).build()
    let first = try container.resolve(Pair.self)
    let second = try container.resolve(Pair.self)
    #expect(first.left === first.right)
    #expect(first.left.node === first.right.node)
    #expect(first.left !== second.left)
    #expect(lifetime(of: Leaf.self, in: container) == "graph")

    var builder = ContainerBuilder(UnnamedLifetimes())
    builder.defaultLifetime = .graph
    let viaProperty = try builder.build().resolve(Pair.self)
    #expect(viaProperty.left === viaProperty.right)
  }

  @Test("A register's default reaches the registers it includes and beats the builder's")
  func registerDefault() throws {
    let container = try ContainerBuilder(GraphByDefault()).build()
    let pair = try container.resolve(Pair.self)
    #expect(pair.left === pair.right)
    #expect(lifetime(of: Node.self, in: container) == "graph")
  }

  @Test("A lifetime written at the binding beats every default")
  func explicitLifetimeWins() throws {
    let container = try ContainerBuilder(defaultLifetime: .graph)
      .adding {
        $0.bind(Node.self, lifetime: .ephemeral) { Node(id: 3) }
        $0.bind(Leaf.self, to: Leaf.init(node:))
        $0.bind(Pair.self, to: Pair.init(left:right:))
      }
      .build()
    let pair = try container.resolve(Pair.self)
    #expect(pair.left === pair.right)
    #expect(lifetime(of: Node.self, in: container) == "ephemeral")
  }

  @Test("An included register with its own default keeps it under a graph builder")
  func includedRegisterKeepsOwnDefault() throws {
    let container = try ContainerBuilder(
      defaultLifetime: .graph, EphemeralByDefault(), LeafAndPair()
    ).build()
    #expect(lifetime(of: Node.self, in: container) == "ephemeral")
    #expect(lifetime(of: Leaf.self, in: container) == "graph")
    let pair = try container.resolve(Pair.self)
    #expect(pair.left === pair.right)
    #expect(pair.left.node.id == 2)
  }

  @Test("Overrides take the builder's default too")
  func overridesTakeBuilderDefault() throws {
    let container = try ContainerBuilder(defaultLifetime: .graph, UnnamedLifetimes())
      .overriding { $0.bind(Node.self) { Node(id: 9) } }
      .build()
    #expect(lifetime(of: Node.self, in: container) == "graph")
    let pair = try container.resolve(Pair.self)
    #expect(pair.left.node === pair.right.node)
    #expect(pair.left.node.id == 9)
  }

  @Test("A child container inherits its parent's default lifetime")
  func childInheritsDefault() throws {
    let parent = try ContainerBuilder(defaultLifetime: .graph).build()
    let child = try parent.makeChild(UnnamedLifetimes())
    #expect(lifetime(of: Leaf.self, in: child) == "graph")
    let pair = try child.resolve(Pair.self)
    #expect(pair.left === pair.right)
  }

  @Test("A register reached with two different defaults fails build(), in either order")
  func conflictingDefaultsFail() throws {
    for registers in [
      [GraphByDefault(), EphemeralIncluder()] as [any DependencyRegister],
      [EphemeralIncluder(), GraphByDefault()],
    ] {
      let error = #expect(throws: BuildError.self) { try ContainerBuilder(registers).build() }
      let finding = error?.diagnostics.first { $0.code == .conflictingDefaultLifetime }
      #expect(finding?.message.contains("UnnamedLifetimes sets no default lifetime") == true)
      #expect(finding?.message.contains("by GraphByDefault with graph") == true)
      #expect(finding?.message.contains("by EphemeralIncluder with ephemeral") == true)
    }
    // The same default twice is fine.
    _ = try ContainerBuilder([GraphByDefault(), GraphByDefault()] as [any DependencyRegister])
      .build()
  }

  @Test("'.default' as a register's default is the includer's; as the builder's, ephemeral")
  func defaultAsDefault() throws {
    let graph = try ContainerBuilder(defaultLifetime: .graph, InheritingIncluder()).build()
    #expect(lifetime(of: Leaf.self, in: graph) == "graph")
    let pair = try graph.resolve(Pair.self)
    #expect(pair.left === pair.right)

    let library = try ContainerBuilder(defaultLifetime: .default, UnnamedLifetimes()).build()
    #expect(lifetime(of: Leaf.self, in: library) == "ephemeral")

    // Reached through `.default` and through a graph includer: the same default, no conflict.
    _ = try ContainerBuilder(
      defaultLifetime: .graph, [InheritingIncluder(), GraphByDefault()] as [any DependencyRegister]
    ).build()
  }
}
