import Testing

@testable import Joinery

@Suite("Binding locations")
struct BindingLocationTests {
  @Test("A binding's location is the #fileID and line of its bind call")
  func capturesFileAndLine() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Int.self, instance: 1)
    }.build()
    let here = try #require(container.bindings.first { $0.key == BindingKey(Int.self) }?.location)
    #expect(here.fileID == "JoineryTests/BindingLocationTests.swift")
    #expect(here.line == 10)
    #expect(here.description == "JoineryTests/BindingLocationTests.swift:10")
  }

  @Test("Locations sort by file, then line; equal ones hash alike")
  func comparesAndHashes() {
    let a = BindingLocation(file: "Feed/A.swift", line: 20)
    let b = BindingLocation(file: "Feed/A.swift", line: 100)
    let c = BindingLocation(file: "Feed/B.swift", line: 1)
    #expect(a.isBefore(b) && b.isBefore(c) && !b.isBefore(a))
    #expect(a == BindingLocation(file: "Feed/A.swift", line: 20))
    #expect(Set([a, b, c, BindingLocation(file: "Feed/A.swift", line: 20)]).count == 3)
  }

  @Test("A one-character file name, which StaticString may keep as a scalar, reads back")
  func oneScalarFile() {
    let location = BindingLocation(file: "é", line: 3)
    #expect(location.fileID == "é")
    #expect(location.description == "é:3")
  }
}
