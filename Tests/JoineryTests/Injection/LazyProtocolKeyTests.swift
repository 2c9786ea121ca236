import Joinery
import Testing

// Swinject's circularity fixtures, keyed by protocols as Swinject's own tests and most apps
// bind them: the back edge goes through a Lazy of a protocol, a forward or a tag.
private protocol ParentProtocol: AnyObject, Sendable { var child: any ChildProtocol { get } }
private protocol ChildProtocol: AnyObject, Sendable { var parent: Lazy<any ParentProtocol> { get } }
private protocol AnyParent: Sendable {}  // not class-bound: a 40-byte existential

private final class Parent: ParentProtocol, AnyParent {
  let child: any ChildProtocol
  init(child: any ChildProtocol) { self.child = child }
}
private final class Child: ChildProtocol {
  let parent: Lazy<any ParentProtocol>
  init(parent: Lazy<any ParentProtocol>) { self.parent = parent }
}
private final class OpenChild: Sendable {
  let parent: Lazy<any AnyParent>
  init(parent: Lazy<any AnyParent>) { self.parent = parent }
}
private final class OpenParent: AnyParent {
  let child: OpenChild
  init(child: OpenChild) { self.child = child }
}

@Suite("Lazy keeps graph identity whatever the key")
struct LazyProtocolKeyTests {
  @Test("Keyed by class-bound protocols, the child's Lazy returns the parent being built")
  func classBoundProtocols() throws {
    let container = try ContainerBuilder(defaultLifetime: .graph)
      .adding { registrar in
        registrar.bind((any ParentProtocol).self, to: Parent.init(child:))
        registrar.bind((any ChildProtocol).self, to: Child.init(parent:))
      }
      .build()
    let parent = try container.resolve((any ParentProtocol).self)
    #expect(try parent.child.parent.get() === parent)
    // Another resolve is another graph.
    let other = try container.resolve((any ParentProtocol).self)
    #expect(try other.child.parent.get() === other)
    #expect(other !== parent)
  }

  @Test("Keyed by a protocol that is not class-bound, tagged, or through a forward")
  func otherKeys() throws {
    let container = try ContainerBuilder(defaultLifetime: .graph)
      .adding { registrar in
        registrar.bind((any AnyParent).self) { (child: OpenChild) in OpenParent(child: child) }
        registrar.bind(OpenChild.self, to: OpenChild.init(parent:))
        registrar.bind(Parent.self, tag: "tagged", to: Parent.init(child:))
        registrar.bind((any ParentProtocol).self, forwardingTo: Parent.self, targetTag: "tagged")
        registrar.bind((any ChildProtocol).self, to: Child.init(parent:))
      }
      .build()
    let open = try container.resolve((any AnyParent).self) as! OpenParent
    #expect(try (open.child.parent.get() as! OpenParent) === open)
    let tagged = try container.resolve(Parent.self, tag: "tagged")
    #expect(try tagged.child.parent.get() === tagged)
  }
}
