import AsyncHTTPClient
import Joinery
import NIOCore
import Testing
import Vapor
import VaporAppCore

/// The app on a free port of 127.0.0.1, started as `serve` starts it, over a new container.
private func running(
  _ prepare: (Application, Container) -> Void = { _, _ in }
) async throws -> (app: Application, container: Container, port: Int) {
  let container = try await ContainerBuilder(appAssemblies()).buildAsync()
  let app = try await Application.make(
    Environment(
      name: "testing", arguments: ["vapor", "serve", "--hostname", "127.0.0.1", "--port", "0"]))
  configure(app, container: container)
  prepare(app, container)
  try await app.startup()
  let port = try #require(app.http.server.shared.localAddress?.port)
  return (app, container, port)
}

private func send(
  _ method: HTTPMethod, _ path: String, port: Int, body: String? = nil,
  headers: [(String, String)] = []
) async throws -> (status: HTTPResponseStatus, body: String) {
  var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
  request.method = method
  for (name, value) in headers { request.headers.add(name: name, value: value) }
  if let body { request.body = .bytes(ByteBuffer(string: body)) }
  let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
  let bytes = try await response.body.collect(upTo: 1 << 20)
  return (response.status, String(buffer: bytes))
}

@Suite("Vapor sample", .serialized)
struct VaporAppTests {
  @Test("A note is written in the request's draft and saved once; the list reads the pool")
  func writeAndList() async throws {
    let (app, container, port) = try await running()
    #expect(try await send(.POST, "/notes", port: port, body: "buy milk").status == .created)
    let list = try await send(.GET, "/notes", port: port)
    #expect(list.status == .ok)
    #expect(list.body == #"["buy milk"]"#)
    let notebook = try await container.resolveAsync(Notebook.self)
    #expect(await notebook.journal == ["open", "save"])
    try await app.asyncShutdown()
    try await container.shutdown()
    #expect(await notebook.journal == ["open", "save", "close"])
  }

  @Test("A factory's own Abort is the answer: no user, 401; signed in, 200")
  func factoryAbortReachesTheClient() async throws {
    let (app, container, port) = try await running()
    #expect(try await send(.GET, "/notes/signed-in", port: port).status == .unauthorized)
    let signedIn = try await send(
      .GET, "/notes/signed-in", port: port, headers: [("x-user", "ada")])
    #expect(signedIn.status == .ok)
    #expect(signedIn.body == "signed in as ada")
    try await app.asyncShutdown()
    try await container.shutdown()
  }

  /// Starts 8 slow writes, waits until all 8 drafts are open, then shuts down as `main.swift`
  /// does — or, `inLifecycleHandler`, the way most people first write it.
  private func shutDownWithRequestsInFlight(
    inLifecycleHandler: Bool
  ) async throws -> (statuses: [HTTPResponseStatus], journal: [String]) {
    let (app, container, port) = try await running { app, container in
      if inLifecycleHandler { app.lifecycle.use(ContainerShutdownHandler(container: container)) }
    }
    let notebook = try await container.resolveAsync(Notebook.self)
    return try await withThrowingTaskGroup(of: HTTPResponseStatus.self) { requests in
      for index in 0..<8 {
        requests.addTask {
          try await send(.POST, "/notes/slow", port: port, body: "note \(index)").status
        }
      }
      while await notebook.openDrafts < 8 { try await Task.sleep(for: .milliseconds(5)) }
      try await app.asyncShutdown()
      if !inLifecycleHandler { try await container.shutdown() }
      var statuses: [HTTPResponseStatus] = []
      for try await status in requests { statuses.append(status) }
      return (statuses, await notebook.journal)
    }
  }

  @Test("Shutdown after app.asyncShutdown(): the server drains its requests, then the pool closes")
  func gracefulShutdownOrder() async throws {
    let (statuses, journal) = try await shutDownWithRequestsInFlight(inLifecycleHandler: false)
    #expect(statuses == Array(repeating: .created, count: 8))
    #expect(journal.filter { $0 == "save" }.count == 8)
    #expect(journal.last == "close")
  }

  @Test("The trap: a LifecycleHandler shuts the container down under the requests in flight")
  func lifecycleHandlerTrap() async throws {
    let (statuses, journal) = try await shutDownWithRequestsInFlight(inLifecycleHandler: true)
    #expect(statuses.allSatisfy { $0 == .internalServerError })
    #expect(!journal.contains("save"))
  }
}
