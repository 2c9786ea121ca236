import Joinery
import Testing

/// Counts instances made and alive, per test (no shared state between tests).
final class LifetimeTracker: Sendable {
  let made = TestAtomic<Int>(0)
  let alive = TestAtomic<Int>(0)

  var madeCount: Int { made.load(ordering: .sequentiallyConsistent) }
  var aliveCount: Int { alive.load(ordering: .sequentiallyConsistent) }
}

/// A class whose instances report to a tracker.
final class Tracked: Sendable {
  let tracker: LifetimeTracker
  let serial: Int

  init(_ tracker: LifetimeTracker) {
    self.tracker = tracker
    serial = tracker.made.add(1, ordering: .sequentiallyConsistent).newValue
    tracker.alive.add(1, ordering: .sequentiallyConsistent)
  }

  deinit { tracker.alive.subtract(1, ordering: .sequentiallyConsistent) }
}

protocol Service: AnyObject, Sendable {
  var serial: Int { get }
}

protocol Greeting: Sendable {
  var text: String { get }
}

final class ServiceImpl: Service, Greeting {
  let tracked: Tracked
  var serial: Int { tracked.serial }
  var text: String { "hello \(serial)" }
  init(_ tracker: LifetimeTracker) { tracked = Tracked(tracker) }
}

struct ValueGreeting: Greeting {
  var text: String
}

final class ServiceC: Sendable {
  let tracked: Tracked
  init(_ tracker: LifetimeTracker) { tracked = Tracked(tracker) }
}

final class ServiceB: Sendable {
  let c: ServiceC
  init(c: ServiceC) { self.c = c }
}

final class ServiceA: Sendable {
  let b: ServiceB
  let c: ServiceC
  init(b: ServiceB, c: ServiceC) {
    self.b = b
    self.c = c
  }
}

/// A register made from a closure, for tests that need a one-off assembly. Each call site (and
/// name) is a distinct register.
struct Bindings: DependencyRegister, Hashable {
  let name: String
  let site: String
  let body: @Sendable (inout Registrar) -> Void

  init(
    _ name: String = "", fileID: String = #fileID, line: Int = #line,
    _ body: @escaping @Sendable (inout Registrar) -> Void
  ) {
    self.name = name
    self.site = "\(fileID):\(line)"
    self.body = body
  }

  func register(in registrar: inout Registrar) { body(&registrar) }

  static func == (lhs: Bindings, rhs: Bindings) -> Bool {
    lhs.name == rhs.name && lhs.site == rhs.site
  }
  func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(site)
  }
}

struct TestFailure: Error, Equatable, CustomStringConvertible {
  let message: String
  var description: String { message }
}

extension ContainerBuilder {
  /// Builds, recording the build error's full report if it fails.
  func buildOrRecord(sourceLocation: SourceLocation = #_sourceLocation) throws -> Container {
    do {
      return try build()
    } catch {
      Issue.record("build failed:\n\(error.debugDescription)", sourceLocation: sourceLocation)
      throw error
    }
  }
}

/// Records, in order, what disposers (or other callbacks) ran.
final class Journal: Sendable {
  private let entries = Locked<[String]>([])
  func note(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}
