import Foundation
import Testing

@testable import JoineryEngine

@Suite("Internal checks flag")
struct InternalChecksFlagTests {
  static let checksExpected =
    ProcessInfo.processInfo.environment["JOINERY_EXPECT_INTERNAL_CHECKS"] == "1"

  @Test(
    "The CI job that asks for internal checks has them compiled in",
    .enabled(if: checksExpected, "set JOINERY_EXPECT_INTERNAL_CHECKS=1 in the checked build"))
  func checksAreOnWhereExpected() {
    #expect(_internalChecksEnabled)
  }
}
