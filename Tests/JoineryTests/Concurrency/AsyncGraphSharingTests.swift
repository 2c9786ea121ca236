import Joinery
import Testing

private final class UnitOfWork: Sendable {}
private final class Orders: Sendable {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}
private final class Payments: Sendable {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}
private final class Checkout: Sendable {
  let orders: Orders
  let payments: Payments
  init(orders: Orders, payments: Payments) {
    self.orders = orders
    self.payments = payments
  }
}

@Suite("graph means one instance per top-level resolution, inside resolveAsync too")
struct AsyncGraphSharingTests {
  @Test("Two async siblings over a synchronous graph binding share its instance")
  func syncGraphUnderAsyncSiblings() async throws {
    for syncSiblings in [false, true] {
      let container = try ContainerBuilder().adding { registrar in
        registrar.bind(UnitOfWork.self, lifetime: .graph) { UnitOfWork() }
        if syncSiblings {
          registrar.bind(Orders.self, to: Orders.init(work:))
          registrar.bind(Payments.self, to: Payments.init(work:))
        } else {
          registrar.bindAsync(Orders.self, to: Orders.init(work:))
          registrar.bindAsync(Payments.self, to: Payments.init(work:))
        }
        registrar.bindAsync(Checkout.self) { resolver in
          Checkout(
            orders: try await resolver.resolveAsync(Orders.self),
            payments: try await resolver.resolveAsync(Payments.self))
        }
      }.build()
      let first = try await container.resolveAsync(Checkout.self)
      #expect(first.orders.work === first.payments.work, "sync siblings: \(syncSiblings)")
      // The next top-level resolution is another graph.
      let second = try await container.resolveAsync(Checkout.self)
      #expect(second.orders.work !== first.orders.work)
    }
  }
}

private protocol Step: Sendable { var work: UnitOfWork { get } }
private final class SaveStep: Step {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}
private final class Pipeline: Sendable {
  let work: UnitOfWork
  let steps: [any Step]
  init(work: UnitOfWork, steps: [any Step]) {
    self.work = work
    self.steps = steps
  }
}

extension AsyncGraphSharingTests {
  @Test("resolveAllAsync inside an async factory shares the resolution's graph instances")
  func contributionsShareTheGraph() async throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(UnitOfWork.self, lifetime: .graph) { UnitOfWork() }
      registrar.contribute((any Step).self, to: SaveStep.init(work:))
      registrar.contributeAsync((any Step).self, to: SaveStep.init(work:))
      registrar.bindAsync(Pipeline.self) { resolver in
        Pipeline(
          work: try await resolver.resolveAsync(),
          steps: try await resolver.resolveAllAsync((any Step).self))
      }
    }.build()
    let pipeline = try await container.resolveAsync(Pipeline.self)
    #expect(pipeline.steps.count == 2)
    #expect(pipeline.steps.allSatisfy { $0.work === pipeline.work })
  }
}

/// A `graph` value: it has no identity, so sharing shows in its serial number.
private struct Ticket: Sendable {
  let serial: Int
}
private final class Report: Sendable {
  let first: Ticket
  let second: Ticket
  init(first: Ticket, second: Ticket) {
    self.first = first
    self.second = second
  }
}

extension AsyncGraphSharingTests {
  @Test(
    "A synchronous graph binding is made once per resolveAsync, even when nothing holds it",
    arguments: 1...3)
  func syncGraphUnheld(resolves: Int) async throws {
    let made = TestAtomic<Int>(0)
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(UnitOfWork.self, lifetime: .graph) { () -> UnitOfWork in
        made.add(1, ordering: .relaxed)
        return UnitOfWork()
      }
      registrar.bindAsync(Orders.self) { resolver in
        // Each resolve is a synchronous resolution of its own; the instance of the first is
        // released before the next starts.
        for _ in 1..<resolves { _ = try resolver.resolve(UnitOfWork.self) }
        return Orders(work: try resolver.resolve(UnitOfWork.self))
      }
    }.build()
    _ = try await container.resolveAsync(Orders.self)
    #expect(made.load(ordering: .relaxed) == 1)
    _ = try await container.resolveAsync(Orders.self)
    #expect(made.load(ordering: .relaxed) == 2)  // the next resolution is another graph
  }

  @Test("A graph value is one value in a resolveAsync, resolved synchronously or awaited")
  func graphValue() async throws {
    let serials = TestAtomic<Int>(0)
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Ticket.self, lifetime: .graph) {
        Ticket(serial: serials.add(1, ordering: .relaxed).newValue)
      }
      registrar.bindAsync(Report.self) { resolver in
        Report(
          first: try resolver.resolve(Ticket.self),
          second: try await resolver.resolveAsync(Ticket.self))
      }
    }.build()
    let report = try await container.resolveAsync(Report.self)
    #expect(report.first.serial == report.second.serial)
    let next = try await container.resolveAsync(Report.self)
    #expect(next.first.serial == next.second.serial)
    #expect(next.first.serial != report.first.serial)
  }

  @Test("The graph instances a resolveAsync held are released when it ends")
  func heldInstancesReleased() async throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Tracked.self, lifetime: .graph) { Tracked(tracker) }
      registrar.bindAsync(Orders.self) { resolver in
        _ = try resolver.resolve(Tracked.self)
        return Orders(work: UnitOfWork())
      }
    }.build()
    for _ in 0..<10 { _ = try await container.resolveAsync(Orders.self) }
    #expect(tracker.madeCount == 10)
    #expect(tracker.aliveCount == 0)
  }

  @Test("A Lazy made in a resolveAsync keeps its graph weakly once the resolution ends")
  func lazyAfterTheResolution() async throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Tracked.self, lifetime: .graph) { Tracked(tracker) }
      registrar.bind(Watcher.self, to: Watcher.init(later:))
      registrar.bindAsync(Watcher.self, tag: "async") { resolver in
        let tracked = try resolver.resolve(Tracked.self)
        let watcher = try resolver.resolve(Watcher.self)
        // During the resolution the Lazy finds the instance it holds.
        #expect(try watcher.later.get() === tracked)
        return watcher
      }
    }.build()
    let watcher = try await container.resolveAsync(Watcher.self, tag: "async")
    // The resolution held its instance; the Lazy it made does not.
    #expect(tracker.madeCount == 1)
    #expect(tracker.aliveCount == 0)
    _ = try watcher.later.get()
    #expect(tracker.madeCount == 2)
  }
}

private final class Watcher: Sendable {
  let later: Lazy<Tracked>
  init(later: Lazy<Tracked>) { self.later = later }
}

extension AsyncGraphSharingTests {
  /// A `graph` unit of work whose creation takes long enough for two resolutions to overlap.
  fileprivate static func bindSlowUnitOfWork(_ registrar: inout Registrar) {
    registrar.bind(UnitOfWork.self, lifetime: .graph) { () -> UnitOfWork in
      var sum = 0
      for index in 0..<2_000 { sum &+= index }
      #expect(sum > 0)
      return UnitOfWork()
    }
  }

  /// How many of many checkouts got two units of work; each resolution gets a new one.
  fileprivate static func splitResolutions(of container: Container) async throws -> Int {
    var split = 0
    var previous: UnitOfWork?
    for _ in 0..<max(Stress.rounds / 5, 100) {
      let checkout = try await container.resolveAsync(Checkout.self)
      if checkout.orders.work !== checkout.payments.work { split += 1 }
      #expect(checkout.orders.work !== previous)
      previous = checkout.orders.work
    }
    return split
  }

  @Test("async let siblings over a synchronous graph binding share its instance")
  func concurrentSiblings() async throws {
    let container = try ContainerBuilder().adding { registrar in
      Self.bindSlowUnitOfWork(&registrar)
      registrar.bind(Orders.self, to: Orders.init(work:))
      registrar.bind(Payments.self, to: Payments.init(work:))
      registrar.bindAsync(Checkout.self) { resolver in
        async let orders = resolver.resolveAsync(Orders.self)
        async let payments = resolver.resolveAsync(Payments.self)
        return Checkout(orders: try await orders, payments: try await payments)
      }
    }.build()
    let split = try await Self.splitResolutions(of: container)
    #expect(split == 0, "\(split) resolutions gave their siblings two units of work")
  }
}

private final class LaterWork: Sendable {
  let later: Lazy<UnitOfWork>
  init(later: Lazy<UnitOfWork>) { self.later = later }
}

extension AsyncGraphSharingTests {
  @Test(
    "Two Lazy values made in a resolveAsync, read by two of its tasks at once, find one instance")
  func lazyReadBySiblings() async throws {
    let container = try ContainerBuilder().adding { registrar in
      Self.bindSlowUnitOfWork(&registrar)
      registrar.bind(LaterWork.self, to: LaterWork.init(later:))
      registrar.bindAsync(Checkout.self) { resolver in
        // Two Lazy values of this resolution, whose UnitOfWork is not made yet.
        let (one, two) = (
          try resolver.resolve(LaterWork.self), try resolver.resolve(LaterWork.self)
        )
        async let first = one.later.get()
        async let second = two.later.get()
        let (work, other) = try await (first, second)
        return Checkout(orders: Orders(work: work), payments: Payments(work: other))
      }
    }.build()
    let split = try await Self.splitResolutions(of: container)
    #expect(split == 0, "\(split) resolutions gave their Lazy two units of work")
  }
}

extension AsyncGraphSharingTests {
  // A resolveAsync's synchronous resolves hold its graph one at a time. A thread inside a
  // factory holds a creation gate; if reading a Lazy of that resolveAsync there waited for the
  // graph while the resolveAsync waited for the gate, neither would ever go on. Inside a factory
  // a Lazy joins the factory's own resolution instead. Run in a child process: a deadlock there
  // is a timeout, not a hung test run.
  @Test(
    "A Lazy of a resolveAsync, read inside a factory holding a gate that resolveAsync waits for, does not deadlock",
    .disabled(if: BuildFacts.threadSanitizer, "fork under ThreadSanitizer deadlocks its runtime"))
  func lazyInsideGateHolderDoesNotDeadlock() throws {
    let run = try Probe.run("graph-lock-against-creation-gate", timeout: 30)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("A: resolved"), "\(run.output)")
    #expect(run.output.contains("B: resolved"), "\(run.output)")
  }
}
