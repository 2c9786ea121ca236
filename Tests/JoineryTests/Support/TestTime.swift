import Foundation

// Time for tests at the package's floor: `ContinuousClock`, `Duration` and
// `Task.sleep(for:)` need macOS 13 / iOS 16, and Scripts/check-apple-floor.sh type-checks the
// tests at macOS 10.15.

/// A point on the monotonic clock, and the time between two of them.
struct Instant: Comparable, Sendable {
  let nanoseconds: UInt64

  /// Now.
  static var now: Instant { Instant(nanoseconds: DispatchTime.now().uptimeNanoseconds) }

  /// `seconds` from now.
  static func inSeconds(_ seconds: Double) -> Instant {
    Instant(nanoseconds: now.nanoseconds + UInt64(seconds * 1e9))
  }

  /// The milliseconds from `earlier` to this instant.
  func milliseconds(since earlier: Instant) -> Double {
    Double(nanoseconds - earlier.nanoseconds) / 1e6
  }

  static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}

extension Task where Success == Never, Failure == Never {
  /// Suspends the task for `milliseconds`.
  static func sleep(milliseconds: UInt64) async throws {
    try await sleep(nanoseconds: milliseconds * 1_000_000)
  }
}

/// Waits until `count` reaches `expected` (work a library does in a task of its own), for at
/// most 60 s; returns what it last read.
///
/// The bound is generous: under ThreadSanitizer on two cores, the suite's stress tests run
/// dozens of spinning threads at once, and a task of the library's waited more than 10 s for a
/// thread of the cooperative pool (CI, `FailedBuildDisposalTests`).
func eventually(_ count: TestAtomic<Int>, reaches expected: Int) async throws -> Int {
  let deadline = Instant.inSeconds(60)
  while count.load(ordering: .acquiring) < expected && Instant.now < deadline {
    try await Task.sleep(milliseconds: 1)
  }
  return count.load(ordering: .acquiring)
}
