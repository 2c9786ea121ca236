import Foundation
import Joinery

/// The analytics module: records events. One log for product analytics, and a separate one,
/// tagged "audit", for security-relevant events.
public protocol Analytics: Sendable {
  func track(_ event: String)
  var events: [String] { get }
}

public final class EventLog: Analytics {
  public let channel: String
  let recorded = Locked<[String]>([])
  let echoes: Bool

  public init(channel: String, echoes: Bool = true) {
    self.channel = channel
    self.echoes = echoes
  }

  public func track(_ event: String) {
    recorded.withLock { $0.append(event) }
    if echoes { print("    [\(channel)] \(event)") }
  }

  public var events: [String] { recorded.withLock { $0 } }
}

public enum AnalyticsTag: Hashable, Sendable {
  case audit
}

public struct AnalyticsAssembly: Assembly {
  public init() {}

  public func register(in registrar: inout Registrar) {
    // `to:` with a function of no parameters declares "depends on nothing", so build() and the
    // graph treat it as checked; a `{ resolver in … }` closure is opaque unless it says
    // `dependsOn:`.
    registrar.bind(EventLog.self, lifetime: .persistent, to: { EventLog(channel: "analytics") })
    // The protocol shares the EventLog's instance: one log, two ways to ask for it.
    registrar.bind((any Analytics).self, forwardingTo: EventLog.self)
    registrar.bind(
      (any Analytics).self, tag: AnalyticsTag.audit, lifetime: .persistent,
      to: { EventLog(channel: "audit") as any Analytics })
  }
}

/// A value behind a lock, for the sample's in-memory logs and fakes. (`Synchronization.Mutex`
/// would raise the sample's deployment target to iOS 18, as it would an app's.)
public final class Locked<Value: Sendable>: @unchecked Sendable {
  // `value` is only touched holding `lock`.
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
