import Joinery
import Testing

private protocol SurfaceGreeting: Sendable { var text: String { get } }
private struct SurfacePlain: SurfaceGreeting { let text: String }
private struct SurfaceArgued: Sendable { let text: String }
private struct SurfaceAwaited: Sendable { let text: String }
private protocol SurfacePlugin: Sendable { var name: String { get } }
private struct SurfaceNamedPlugin: SurfacePlugin { let name: String }

/// What every receiver answers, through the one generic surface: the same forms, the same
/// labels, the same results.
private func everyForm<R: Resolving & ~Copyable>(_ receiver: borrowing R) throws -> [String] {
  var seen: [String] = []
  seen.append(try receiver.resolve((any SurfaceGreeting).self).text)
  seen.append(try receiver.resolve((any SurfaceGreeting).self, tag: "loud").text)
  seen.append(try receiver.resolve((any SurfaceGreeting).self, tag: "absent").text)  // falls back
  seen.append(try receiver.resolve(SurfaceArgued.self, arguments: "one").text)
  seen.append(try receiver.resolve(SurfaceArgued.self, arguments: "one", 2).text)
  seen.append(try receiver.resolve(SurfaceArgued.self, tag: "loud", arguments: "three").text)
  seen.append(try receiver.resolve((any SurfaceGreeting).self, tag: BindingTag("loud")).text)
  seen.append(try receiver.resolve((any SurfaceGreeting)?.self)?.text ?? "nil")
  seen.append(
    try receiver.resolve((any SurfaceGreeting)?.self, tag: "absent", matching: .exact)?.text
      ?? "nil")
  seen.append(try receiver.resolve(SurfaceArgued?.self, arguments: 1.5)?.text ?? "nil")
  seen.append(try receiver.resolveAll((any SurfacePlugin).self).map(\.name).joined(separator: "+"))
  seen.append(
    try receiver.resolveAll((any SurfacePlugin).self, tag: "late").map(\.name).joined(
      separator: "+"))
  seen.append(
    try receiver.resolveAll((any SurfacePlugin).self) { $0.metadata as? String == "second" }
      .map(\.name).joined(separator: "+"))
  return seen
}

/// The asynchronous forms, on every receiver that can await.
private func everyAsyncForm<R: Resolving & Sendable>(_ receiver: R) async throws -> [String] {
  var seen: [String] = []
  seen.append(try await receiver.resolveAsync((any SurfaceGreeting).self).text)
  seen.append(try await receiver.resolveAsync((any SurfaceGreeting).self, tag: "loud").text)
  seen.append(try await receiver.resolveAsync(SurfaceAwaited.self).text)
  seen.append(try await receiver.resolveAsync(SurfaceAwaited.self, tag: "absent").text)
  seen.append(try await receiver.resolveAsync(SurfaceArgued.self, arguments: "one", 2).text)
  seen.append(try await receiver.resolveAsync(SurfaceAwaited.self, arguments: 7).text)
  seen.append(
    try await receiver.resolveAllAsync((any SurfacePlugin).self).map(\.name).joined(
      separator: "+"))
  seen.append(
    try await receiver.resolveAllAsync((any SurfacePlugin).self, tag: "awaited").map(\.name)
      .joined(separator: "+"))
  seen.append(
    try await receiver.resolveAllAsync((any SurfacePlugin).self) {
      $0.metadata as? String == "second"
    }
    .map(\.name).joined(separator: "+"))
  return seen
}

private let expectedAsync = [
  "hello", "HELLO", "awaited", "awaited", "one×2", "awaited 7", "a+b", "async", "b",
]

private let expected = [
  "hello", "HELLO", "hello", "one", "one×2", "THREE", "HELLO", "hello", "nil", "nil", "a+b", "z",
  "b",
]

private final class AsyncRecorder: Sendable {
  let synchronous: [String]
  let asynchronous: [String]
  init(synchronous: [String], asynchronous: [String]) {
    self.synchronous = synchronous
    self.asynchronous = asynchronous
  }
}

private final class SurfaceUnit: Sendable {}

private final class Recorder: Sendable {
  let seen: [String]
  init(_ seen: [String]) { self.seen = seen }
}

@Suite("One resolve surface")
struct ResolveSurfaceTests {
  private func makeContainer() throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any SurfaceGreeting).self, instance: SurfacePlain(text: "hello"))
        registrar.bind(
          (any SurfaceGreeting).self, tag: "loud", instance: SurfacePlain(text: "HELLO"))
        registrar.bind(SurfaceArgued.self) { (_, text: String) in SurfaceArgued(text: text) }
        registrar.bind(SurfaceArgued.self) { (_, text: String, times: Int) in
          SurfaceArgued(text: "\(text)×\(times)")
        }
        registrar.bind(SurfaceArgued.self, tag: "loud") { (_, text: String) in
          SurfaceArgued(text: text.uppercased())
        }
        registrar.contribute((any SurfacePlugin).self) { _ in SurfaceNamedPlugin(name: "a") }
        registrar.contribute((any SurfacePlugin).self, metadata: "second") { _ in
          SurfaceNamedPlugin(name: "b")
        }
        registrar.contribute((any SurfacePlugin).self, tag: "late") { _ in
          SurfaceNamedPlugin(name: "z")
        }
        registrar.bind(Recorder.self) { resolver in Recorder(try everyForm(resolver)) }
        registrar.bindAsync(SurfaceAwaited.self) { _ in SurfaceAwaited(text: "awaited") }
        registrar.bindAsync(SurfaceAwaited.self) { (_, number: Int) in
          SurfaceAwaited(text: "awaited \(number)")
        }
        registrar.contributeAsync((any SurfacePlugin).self, tag: "awaited") { _ in
          SurfaceNamedPlugin(name: "async")
        }
        registrar.bindAsync(AsyncRecorder.self) { resolver in
          AsyncRecorder(
            synchronous: try everyForm(resolver), asynchronous: try await everyAsyncForm(resolver))
        }
      }
    ).buildOrRecord()
  }

  @Test("A container answers every form")
  func onContainer() throws {
    #expect(try everyForm(try makeContainer()) == expected)
  }

  @Test("A scope answers every form, resolveAll and tagged arguments included")
  func scope() throws {
    let scope = try makeContainer().makeScope()
    #expect(try everyForm(scope) == expected)
  }

  @Test("A factory's resolver answers every form, tagged resolveAll included")
  func resolver() throws {
    #expect(try makeContainer().resolve(Recorder.self).seen == expected)
  }

  @Test("A container and a scope answer every async form")
  func asyncForms() async throws {
    let container = try makeContainer()
    #expect(try await everyAsyncForm(container) == expectedAsync)
    #expect(try await everyAsyncForm(container.makeScope()) == expectedAsync)
  }

  @Test("An async factory's resolver answers every form, synchronous and async")
  func asyncResolver() async throws {
    let recorder = try await makeContainer().resolveAsync(AsyncRecorder.self)
    #expect(recorder.synchronous == expected)
    #expect(recorder.asynchronous == expectedAsync)
  }

  @Test("A scope's resolveAllAsync gives the scope's instances of scoped contributions")
  func scopedContributions() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.contribute(SurfaceUnit.self, lifetime: .scoped) { _ in SurfaceUnit() }
        registrar.contributeAsync(SurfaceUnit.self, lifetime: .scoped) { _ in SurfaceUnit() }
      }
    ).buildOrRecord()
    let scope = container.makeScope()
    let first = try await scope.resolveAllAsync(SurfaceUnit.self)
    let again = try await scope.resolveAllAsync(SurfaceUnit.self)
    #expect(first.count == 2)
    #expect(zip(first, again).allSatisfy { $0 === $1 })
    let other = try await container.makeScope().resolveAllAsync(SurfaceUnit.self)
    #expect(other.count == 2)
    #expect(zip(first, other).allSatisfy { $0 !== $1 })
  }

  @Test("A closed scope refuses every form with shutDown")
  func closedScope() async throws {
    let scope = try makeContainer().makeScope()
    try await scope.close()
    let error = try #require(throws: ResolutionError.self) { try everyForm(scope) }
    #expect(error.code == .shutDown)
    let all = try #require(throws: ResolutionError.self) {
      try scope.resolveAll((any SurfacePlugin).self)
    }
    #expect(all.code == .shutDown)
    await #expect(throws: ResolutionError.self) {
      _ = try await scope.resolveAllAsync((any SurfacePlugin).self)
    }
    await #expect(throws: ResolutionError.self) {
      _ = try await scope.resolveAsync(SurfaceAwaited.self)
    }
  }
}
