import Joinery
import Testing

// Swinject's circular-dependency shapes, with the back edge through a Lazy.
private final class Parent: Sendable {
  let child: Child
  init(child: Child) { self.child = child }
}

private final class Child: Sendable {
  let parent: Lazy<Parent>
  init(parent: Lazy<Parent>) { self.parent = parent }
}

private final class Client: Sendable {
  let server: Server
  let logger: Logger
  init(server: Server, logger: Logger) {
    self.server = server
    self.logger = logger
  }
}

private final class Server: Sendable {
  let client: Lazy<Client>
  let logger: Logger
  init(client: Lazy<Client>, logger: Logger) {
    self.client = client
    self.logger = logger
  }
}

private final class Logger: Sendable {}

private final class Holder: Sendable {
  let logger: Lazy<Logger>
  init(logger: Lazy<Logger>) { self.logger = logger }
}

private func graphContainer() throws -> Container {
  try ContainerBuilder(defaultLifetime: .graph)
    .adding { registrar in
      registrar.bind(Parent.self, to: Parent.init(child:))
      registrar.bind(Child.self, to: Child.init(parent:))
      registrar.bind(Client.self, to: Client.init(server:logger:))
      registrar.bind(Server.self, to: Server.init(client:logger:))
      registrar.bind(Logger.self, to: Logger.init)
    }
    .build()
}

@Suite("Lazy back-references in the graph lifetime")
struct LazyGraphTests {
  @Test("A Lazy made during a graph resolve resolves to the instance of that graph")
  func parentChild() throws {
    let container = try graphContainer()
    let parent = try container.resolve(Parent.self)
    #expect(try parent.child.parent.get() === parent)

    let client = try container.resolve(Client.self)
    let back = try client.server.client.get()
    #expect(back === client)
    #expect(back.logger === client.server.logger)
  }

  @Test("500 concurrent graph resolves each close the back edge on their own parent")
  func concurrentGraphs() async throws {
    let container = try graphContainer()
    let outcomes = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<500 {
        group.addTask {
          guard let parent = try? container.resolve(Parent.self),
            let back = try? parent.child.parent.get()
          else { return false }
          return back === parent
        }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(outcomes.count == 500)
    #expect(outcomes.allSatisfy { $0 })
  }

  @Test("Until read, the Lazy keeps its graph weakly: a new parent once the first one is gone")
  func weakMemory() throws {
    let container = try graphContainer()
    weak var released: Parent?
    var child: Child?
    do {
      let parent = try container.resolve(Parent.self)
      released = parent
      child = parent.child
    }
    #expect(released == nil)
    // Its parent gone, the child's Lazy resolves a whole new graph (a new parent with its own
    // child), so the old child and the new parent never hold each other.
    weak var rebuiltLeft: Parent?
    do {
      let rebuilt = try #require(child).parent.get()
      #expect(rebuilt.child !== child)
      #expect(try rebuilt.child.parent.get() === rebuilt)
      rebuiltLeft = rebuilt
    }
    #expect(rebuiltLeft != nil)  // the old child's Lazy made it, and keeps it
    child = nil
    #expect(rebuiltLeft == nil)
  }

  @Test("A back-reference read through the Lazy is kept weakly: parent and child are freed")
  func noCycleAfterGet() throws {
    let container = try graphContainer()
    weak var parentLeft: Parent?
    weak var clientLeft: Client?
    do {
      let parent = try container.resolve(Parent.self)
      #expect(try parent.child.parent.get() === parent)
      #expect(try parent.child.parent.get() === parent)
      parentLeft = parent
      let client = try container.resolve(Client.self)
      #expect(try client.server.client.get() === client)
      clientLeft = client
    }
    #expect(parentLeft == nil)
    #expect(clientLeft == nil)
  }

  @Test("An instance the Lazy itself made is kept: a second get() gives the same one")
  func ownInstanceKept() throws {
    let container = try ContainerBuilder(defaultLifetime: .graph)
      .adding { registrar in
        registrar.bind(Logger.self, lifetime: .ephemeral, to: Logger.init)
        registrar.bind(Holder.self, to: Holder.init(logger:))
      }
      .build()
    let holder = try container.resolve(Holder.self)
    let first = try holder.logger.get()
    #expect(try holder.logger.get() === first)
  }

  @Test("A Lazy made outside any resolution resolves a graph of its own")
  func lazyFromTheContainer() throws {
    let container = try graphContainer()
    let lazy = try container.resolve(Lazy<Parent>.self)
    let parent = try lazy.get()
    #expect(try lazy.get() === parent)
    #expect(try parent.child.parent.get() === parent)
  }
}
