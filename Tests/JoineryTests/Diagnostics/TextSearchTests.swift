import Testing

@testable import Joinery

/// The string helpers that stand in for `_StringProcessing` (macOS 13 / iOS 16): messages,
/// near-miss suggestions and graph exports depend on them.
@Suite("Text search without _StringProcessing")
struct TextSearchTests {
  @Test("Finds the first occurrence, including overlapping starts and the end of the text")
  func firstOccurrence() {
    let text = "aaab (unknown context at $12).Name"
    #expect(text.firstOccurrence(of: "aab").map { text[$0] } == "aab")
    #expect(text.firstOccurrence(of: "Name").map { text[$0] } == "Name")
    #expect(
      text.firstOccurrence(of: "(unknown context at $").map {
        text.distance(from: text.startIndex, to: $0.lowerBound)
      } == 5)
    #expect(text.firstOccurrence(of: "Names") == nil)
    #expect(text.includes("b (u"))
    #expect(!"ab".includes("abc"))
    #expect("".firstOccurrence(of: "a") == nil)
  }

  @Test("Private declaration contexts are dropped from qualified type names")
  func privateContexts() {
    #expect(
      TypeName.withoutPrivateContexts(
        "App.(unknown context at $10ab).Cache.(unknown context at $2f).Key")
        == "App.Cache.Key")
    #expect(TypeName.withoutPrivateContexts("App.Cache") == "App.Cache")
  }

  @Test("Escaping maps scalars, and a CR LF pair is one line break")
  func escaping() {
    let escaped = "a\r\nb\rc\nd\"é".escapingScalars {
      switch $0 {
      case "\n": "<n>"
      case "\r": "<r>"
      case "\"": "<q>"
      default: nil
      }
    }
    #expect(escaped == "a<n>b<r>c<n>d<q>é")
    // A quote followed by a combining mark is one Character, but still a quote to escape.
    #expect("\"\u{301}".escapingScalars { $0 == "\"" ? "<q>" : nil } == "<q>\u{301}")
  }
}
