import Joinery
import Vapor

/// What each request's scope is given, declared so that `build()` checks what depends on it.
public struct RequestInfo: Sendable {
  public let path: String
  /// The signed-in user (the `x-user` header: a stand-in for real authentication).
  public let user: String?
}

/// The signed-in author of a request: its factory answers 401 itself, with Vapor's `Abort`.
public struct Author: Sendable {
  public let name: String
}

/// The notes feature: the pool, the per-request draft over it, the author, and the routes.
public struct NotesAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    registrar.bindAsync(
      Notebook.self, lifetime: .persistent(eager: true), dispose: { await $0.close() },
      to: Notebook.init)
    registrar.bindScopeValue(RequestInfo.self)
    registrar.bind(
      Draft.self, lifetime: .scoped, dispose: { await $0.discardIfOpen() },
      to: Draft.init(notebook:))
    registrar.bind(Author.self, lifetime: .scoped) { (info: RequestInfo) in
      guard let user = info.user else { throw Abort(.unauthorized, reason: "sign in first") }
      return Author(name: user)
    }
  }

  public static func routes(_ notes: any RoutesBuilder) {
    notes.post { request -> HTTPStatus in
      try await request.resolve(Draft.self).write(request.body.string ?? "")
      return .created
    }
    // A slow write: the draft stays open for a while (the shutdown tests' requests in flight).
    notes.post("slow") { request -> HTTPStatus in
      try await request.resolve(Draft.self).write(request.body.string ?? "")
      try await Task.sleep(for: .milliseconds(300))
      return .created
    }
    notes.get { request in
      try await request.resolveAsync(Notebook.self).notes
    }
    notes.get("signed-in") { request in
      "signed in as \(try request.resolve(Author.self).name)"
    }
  }
}
