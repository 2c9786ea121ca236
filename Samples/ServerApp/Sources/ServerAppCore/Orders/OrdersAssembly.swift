import Hummingbird
import Joinery

/// Reads and writes orders through the request's unit of work.
public struct OrderRepository: Sendable {
  let work: UnitOfWork
  let database: Database

  public init(work: UnitOfWork, database: Database) {
    self.work = work
    self.database = database
  }

  func place(item: String) async throws {
    try await work.insertOrder(item: item)
  }

  func all() async -> [Database.Order] {
    await database.orders
  }
}

/// The user a request is made by: its factory refuses a request without one, with the
/// `401` the client should get (``ScopeMiddleware`` answers a factory's HTTP error as itself).
public struct Clerk: Sendable {
  public let name: String

  public init(request: RequestInfo) throws {
    guard let user = request.user else { throw HTTPError(.unauthorized, message: "sign in") }
    name = user
  }
}

/// The orders feature: its bindings and its routes.
public struct OrdersAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    // Ephemeral, over the request's scoped unit of work: every repository in one request
    // writes in the same transaction.
    registrar.bind(OrderRepository.self, to: OrderRepository.init(work:database:))
    registrar.bind(Clerk.self, lifetime: .scoped, to: Clerk.init(request:))
  }

  /// The routes, each resolving what it needs from the request's scope.
  public static func routes(_ group: RouterGroup<AppRequestContext>) {
    group.get { _, context -> [Database.Order] in
      try await context.resolve(OrderRepository.self).all()
    }
    group.post { request, context -> HTTPResponse.Status in
      let item = String(buffer: try await request.body.collect(upTo: 1_024))
      guard !item.isEmpty else { throw HTTPError(.badRequest, message: "an order needs an item") }
      try await context.resolve(OrderRepository.self).place(item: item)
      return .created
    }
    // Only for a signed-in clerk: without one, the Clerk factory's 401 is the answer.
    group.get("signed-in") { _, context -> String in
      "signed in as \(try context.resolve(Clerk.self).name)"
    }
    // Takes a while: what a request in flight during shutdown looks like.
    group.post("slow") { request, context -> HTTPResponse.Status in
      let item = String(buffer: try await request.body.collect(upTo: 1_024))
      try await context.resolve(OrderRepository.self).place(item: item)
      try await Task.sleep(for: .milliseconds(300))
      return .created
    }
    // Fails after staging an order: the unit of work is rolled back, nothing is written.
    group.post("failing") { _, context -> HTTPResponse.Status in
      try await context.resolve(OrderRepository.self).place(item: "never")
      throw HTTPError(.conflict, message: "out of stock")
    }
  }
}

extension Database.Order: ResponseEncodable {}
