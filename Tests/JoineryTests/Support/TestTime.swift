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

/// How long a test waits for work that must end before it calls it a hang, in seconds.
///
/// Generous on purpose: under ThreadSanitizer on two cores, the suite's stress tests run
/// dozens of spinning threads at once, and every task on the cooperative pool can wait that
/// long for a thread. The whole TSan suite on an idle two-core machine showed a stall of 83 s
/// (dozens of unrelated tests all "passed after 83.5 seconds"), and a stall past a 90 s bound
/// failed two ring tests with the machine loaded; a real hang still fails, later.
let patience: Double = 300

/// Waits until `count` reaches `expected` (work a library does in a task of its own), for at
/// most ``patience``; returns what it last read.
func eventually(_ count: TestAtomic<Int>, reaches expected: Int) async throws -> Int {
  try await eventually(count) { $0 >= expected }
}

/// Waits until `count` falls to `expected` (instances a task of the library's lets go of once
/// it is done with them), for at most ``patience``; returns what it last read.
func eventually(_ count: TestAtomic<Int>, fallsTo expected: Int) async throws -> Int {
  try await eventually(count) { $0 <= expected }
}

private func eventually(
  _ count: TestAtomic<Int>, until done: (Int) -> Bool
) async throws -> Int {
  let deadline = Instant.inSeconds(patience)
  while !done(count.load(ordering: .acquiring)) && Instant.now < deadline {
    try await Task.sleep(milliseconds: 1)
  }
  return count.load(ordering: .acquiring)
}
