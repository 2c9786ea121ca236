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
      let container = try ContainerBuilder(
        InlineRegister { registrar in
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
        }
      ).build()
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
    let container = try ContainerBuilder(
      InlineRegister { registrar in
        registrar.bind(UnitOfWork.self, lifetime: .graph) { UnitOfWork() }
        registrar.contribute((any Step).self, to: SaveStep.init(work:))
        registrar.contributeAsync((any Step).self, to: SaveStep.init(work:))
        registrar.bindAsync(Pipeline.self) { resolver in
          Pipeline(
            work: try await resolver.resolveAsync(),
            steps: try await resolver.resolveAllAsync((any Step).self))
        }
      }
    ).build()
    let pipeline = try await container.resolveAsync(Pipeline.self)
    #expect(pipeline.steps.count == 2)
    #expect(pipeline.steps.allSatisfy { $0.work === pipeline.work })
  }
}
