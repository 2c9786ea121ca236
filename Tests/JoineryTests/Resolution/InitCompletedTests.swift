import Foundation
import Joinery
import Testing

// The circularity patterns of Swinject's (`initCompleted`) and Dip's (`resolvingProperties`)
// own tests: a back-reference filled after construction, within the same resolution.
private protocol ParentProtocol: AnyObject, Sendable {
  var child: any ChildProtocol { get }
}
private protocol ChildProtocol: AnyObject, Sendable {
  var parent: (any ParentProtocol)? { get }
}

private final class Parent: ParentProtocol, @unchecked Sendable {
  let child: any ChildProtocol
  init(child: any ChildProtocol) { self.child = child }
}
private final class Child: ChildProtocol, @unchecked Sendable {
  weak var parent: (any ParentProtocol)?
}

// Three objects in a ring: A → B → C (constructors), C ⇢ A (filled after).
private final class A: @unchecked Sendable {
  let b: B
  init(b: B) { self.b = b }
}
private final class B: @unchecked Sendable {
  let c: C
  init(c: C) { self.c = c }
}
private final class C: @unchecked Sendable {
  weak var a: A?
}

// Dip's client/server: both sides set by property.
private final class Server: @unchecked Sendable {
  weak var client: Client?
}
private final class Client: @unchecked Sendable {
  var server: Server?
}

private func parentAndChild(_ lifetime: Lifetime) throws -> Container {
  try ContainerBuilder().adding { registrar in
    registrar.bind((any ParentProtocol).self, lifetime: .init(lifetime)) { resolver in
      Parent(child: try resolver.resolve((any ChildProtocol).self))
    }
    registrar.bind((any ChildProtocol).self, lifetime: .init(lifetime)) { _ in Child() }
    registrar.initCompleted((any ChildProtocol).self) { resolver, child in
      (child as! Child).parent = try resolver.resolve((any ParentProtocol).self)
    }
  }.build()
}

@Suite("initCompleted: back-references filled in the same resolution")
struct InitCompletedTests {
  @Test(
    "graph and persistent: the child's parent is the parent of the same graph",
    arguments: [
      Lifetime.graph, .persistent,
    ])
  func parentChild(lifetime: Lifetime) throws {
    let container = try parentAndChild(lifetime)
    let parent = try container.resolve((any ParentProtocol).self)
    #expect(parent.child.parent === parent)
    guard lifetime == .persistent else { return }
    // Starting from the child closes the same ring. (In the graph lifetime nothing would hold
    // that parent once the resolve returns: the back-reference is weak, as it should be.)
    let child = try container.resolve((any ChildProtocol).self)
    let ringParent = try #require(child.parent)
    #expect(ringParent.child === child)
  }

  @Test("graph: every resolve is its own graph, with its own parent")
  func separateGraphs() throws {
    let container = try parentAndChild(.graph)
    let first = try container.resolve((any ParentProtocol).self)
    let second = try container.resolve((any ParentProtocol).self)
    #expect(first !== second)
    #expect(first.child.parent === first && second.child.parent === second)
  }

  @Test("Three objects in a ring, the last one's back-reference filled after construction")
  func threeObjects() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(A.self, lifetime: .graph, to: A.init(b:))
      registrar.bind(B.self, lifetime: .graph, to: B.init(c:))
      registrar.bind(C.self, lifetime: .graph, to: C.init)
      registrar.initCompleted(C.self) { resolver, c in c.a = try resolver.resolve(A.self) }
    }.build()
    let a = try container.resolve(A.self)
    #expect(a.b.c.a === a)
  }

  @Test(
    "Both sides by property (Dip's resolvingProperties), graph and persistent",
    arguments: [
      Lifetime.graph, .persistent,
    ])
  func bothSidesByProperty(lifetime: Lifetime) throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Server.self, lifetime: .init(lifetime), to: Server.init)
      registrar.bind(Client.self, lifetime: .init(lifetime), to: Client.init)
      registrar.initCompleted(Client.self) { resolver, client in
        client.server = try resolver.resolve(Server.self)
      }
      registrar.initCompleted(Server.self) { resolver, server in
        server.client = try resolver.resolve(Client.self)
      }
    }.build()
    let client = try container.resolve(Client.self)
    let server = try #require(client.server)
    #expect(server.client === client)
  }

  @Test("500 concurrent graph resolves each close the ring on their own parent")
  func concurrentGraphs() async throws {
    let container = try parentAndChild(.graph)
    let closed = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<500 {
        group.addTask {
          guard let parent = try? container.resolve((any ParentProtocol).self) else {
            return false
          }
          return parent.child.parent === parent
        }
      }
      var all = true
      for await ok in group { all = all && ok }
      return all
    }
    #expect(closed)
  }

  @Test("Nothing is kept alive: with a weak back-reference the graph is released")
  func noLeak() throws {
    let container = try parentAndChild(.graph)
    weak var parent: (any ParentProtocol)?
    weak var child: (any ChildProtocol)?
    do {
      let resolved = try container.resolve((any ParentProtocol).self)
      parent = resolved
      child = resolved.child
      #expect(child?.parent === resolved)
    }
    #expect(parent == nil)
    #expect(child == nil)
  }

  @Test("A step in a scope resolves in that scope")
  func inAScope() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Server.self, lifetime: .scoped, to: Server.init)
      registrar.bind(Client.self, to: Client.init)
      registrar.initCompleted(Client.self) { resolver, client in
        client.server = try resolver.resolve(Server.self)
      }
    }.build()
    let scope = container.makeScope()
    let first = try scope.resolve(Client.self)
    let second = try scope.resolve(Client.self)
    #expect(first.server != nil && first.server === second.server)
    #expect(try container.makeScope().resolve(Client.self).server !== first.server)
  }

  @Test("A back-reference through ephemeral bindings never closes: an error, not a hang")
  func ephemeralRingIsReported() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Server.self, to: Server.init)
      registrar.bind(Client.self, to: Client.init)
      registrar.initCompleted(Client.self) { resolver, client in
        client.server = try resolver.resolve(Server.self)
      }
      registrar.initCompleted(Server.self) { resolver, server in
        server.client = try resolver.resolve(Client.self)
      }
    }.build()
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Client.self) }
    #expect(error?.code == .depthLimitExceeded)
    #expect(error?.debugDescription.contains("initCompleted") == true)
  }

  @Test("A step that throws fails the resolve with its error, and says the step threw")
  func throwingStep() throws {
    struct Refused: Error {}
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Client.self, to: Client.init)
      registrar.initCompleted(Client.self) { _, _ in throw Refused() }
    }.build()
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Client.self) }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError is Refused)
    #expect(error?.requested == BindingKey(Client.self))
    let description = error?.description ?? ""
    let report = error?.debugDescription ?? ""
    #expect(description.hasPrefix("The initCompleted step of Client threw: Refused()"))
    #expect(report.contains("Its factory returned; then an initCompleted step"))
    #expect(!report.contains("The factory of"))
  }

  @Test("A factory that throws is still reported as the factory's failure")
  func throwingFactory() throws {
    struct Refused: Error {}
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Client.self) { _ in throw Refused() }
      registrar.initCompleted(Client.self) { _, _ in }
    }.build()
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Client.self) }
    #expect(error?.code == .factoryFailed)
    #expect(error?.description.hasPrefix("The factory of Client threw: Refused()") == true)
  }

  @Test("A step whose own resolve fails passes that error on, path and all")
  func stepResolveFails() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Client.self, to: Client.init)
      registrar.initCompleted(Client.self) { resolver, _ in
        _ = try resolver.resolve(Int.self)
      }
    }.build()
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Client.self) }
    #expect(error?.code == .missingBinding)
    #expect(error?.requested == BindingKey(Int.self))
  }

  @Test(
    "When a step throws, the instance it was given is not kept, whatever the unshared lifetime",
    arguments: [Lifetime.ephemeral, .graph, .transient])
  func throwingStepKeepsNothing(lifetime: Lifetime) throws {
    struct Refused: Error {}
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Tracked.self, lifetime: .init(lifetime)) { Tracked(tracker) }
      registrar.initCompleted(Tracked.self) { _, _ in throw Refused() }
    }.build()
    for _ in 0..<3 {
      #expect(throws: ResolutionError.self) { try container.resolve(Tracked.self) }
    }
    #expect(tracker.madeCount == 3)
    #expect(tracker.aliveCount == 0, "\(lifetime)")
  }

  @Test("A step for a type nothing binds fails build()")
  func unboundStep() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.initCompleted(Client.self) { _, _ in }
      }.build()
    }
    #expect(
      error?.diagnostics.first?.message.contains("initCompleted is declared for Client") == true)
  }

  @Test("Cycles through constructors stay build errors")
  func constructorCycleStillFails() throws {
    final class Left: @unchecked Sendable { init(right: Right) {} }
    final class Right: @unchecked Sendable { init(left: Left) {} }
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder().adding { registrar in
        registrar.bind(Left.self, lifetime: .graph, to: Left.init(right:))
        registrar.bind(Right.self, lifetime: .graph, to: Right.init(left:))
      }.build()
    }
    #expect(error?.diagnostics.contains { $0.code == .dependencyCycle } == true)
  }
}
