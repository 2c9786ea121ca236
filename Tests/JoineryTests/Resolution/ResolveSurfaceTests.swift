import Joinery
import Testing

private protocol SurfaceGreeting: Sendable { var text: String { get } }
private struct SurfacePlain: SurfaceGreeting { let text: String }
private struct SurfaceArgued: Sendable { let text: String }
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
  seen.append(try receiver.resolveIfBound((any SurfaceGreeting).self)?.text ?? "nil")
  seen.append(
    try receiver.resolveIfBound((any SurfaceGreeting).self, tag: "absent", matching: .exact)?.text
      ?? "nil")
  seen.append(try receiver.resolveIfBound(SurfaceArgued.self, arguments: 1.5)?.text ?? "nil")
  seen.append(try receiver.resolveAll((any SurfacePlugin).self).map(\.name).joined(separator: "+"))
  seen.append(
    try receiver.resolveAll((any SurfacePlugin).self, tag: "late").map(\.name).joined(
      separator: "+"))
  return seen
}

private let expected = [
  "hello", "HELLO", "hello", "one", "one×2", "THREE", "hello", "nil", "nil", "a+b", "z",
]

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
        registrar.contribute((any SurfacePlugin).self) { _ in SurfaceNamedPlugin(name: "b") }
        registrar.contribute((any SurfacePlugin).self, tag: "late") { _ in
          SurfaceNamedPlugin(name: "z")
        }
        registrar.bind(Recorder.self) { resolver in Recorder(try everyForm(resolver)) }
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
  }
}
