import Joinery
import Testing

@Suite("Binding locations")
struct BindingLocationTests {
  @Test("A location keeps the #fileID and line it was given")
  func capturesFileAndLine() {
    let here = BindingLocation()
    #expect(here.fileID == "JoineryTests/BindingLocationTests.swift")
    #expect(here.line == 8)
    #expect(here.description == "JoineryTests/BindingLocationTests.swift:8")
  }

  @Test("Locations compare by file, then line; equal ones hash alike")
  func comparesAndHashes() {
    let a = BindingLocation(fileID: "Feed/A.swift", line: 20)
    let b = BindingLocation(fileID: "Feed/A.swift", line: 100)
    let c = BindingLocation(fileID: "Feed/B.swift", line: 1)
    #expect(a < b && b < c)
    #expect(a == BindingLocation(fileID: "Feed/A.swift", line: 20))
    #expect(Set([a, b, c, BindingLocation(fileID: "Feed/A.swift", line: 20)]).count == 3)
  }

  @Test("A one-character file name, which StaticString may keep as a scalar, reads back")
  func oneScalarFile() {
    let location = BindingLocation(fileID: "é", line: 3)
    #expect(location.fileID == "é")
    #expect(location.description == "é:3")
  }
}
