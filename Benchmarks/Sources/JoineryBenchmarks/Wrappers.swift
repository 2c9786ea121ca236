import Foundation
import Joinery

/// Bound only in Joinery, through `bindAsync`: the "async persistent" case.
final class AsyncSettings: @unchecked Sendable { init() {} }

/// A client holding a property wrapper, resolved once before the measurement.
final class Screen {
  @Injected(from: JoineryContainers.main) var settings: Settings
}

/// Hands out one shared object through an `async` function the optimizer cannot see into.
@inline(never) func sharedSettingsAsync(_ stored: Stored) async -> Settings { stored.settings }

/// An async handler over two synchronous services that share one `graph` unit of work: the
/// "async resolution over a graph binding" case.
final class UnitOfWork: @unchecked Sendable { init() {} }
final class OrderStore: @unchecked Sendable {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}
final class PaymentStore: @unchecked Sendable {
  let work: UnitOfWork
  init(work: UnitOfWork) { self.work = work }
}
final class CheckoutHandler: @unchecked Sendable {
  let orders: OrderStore
  let payments: PaymentStore
  init(orders: OrderStore, payments: PaymentStore) {
    self.orders = orders
    self.payments = payments
  }
}

/// The checkout handler made by hand, through an `async` function the optimizer cannot see into.
@inline(never) func makeCheckoutAsync() async -> CheckoutHandler {
  let work = UnitOfWork()
  return CheckoutHandler(orders: OrderStore(work: work), payments: PaymentStore(work: work))
}

let checkoutContainer: Joinery.Container = try! ContainerBuilder().adding { registrar in
  registrar.bind(UnitOfWork.self, lifetime: .graph, to: UnitOfWork.init)
  registrar.bind(OrderStore.self, to: OrderStore.init(work:))
  registrar.bind(PaymentStore.self, to: PaymentStore.init(work:))
  registrar.bindAsync(CheckoutHandler.self) { resolver in
    CheckoutHandler(
      orders: try resolver.resolve(OrderStore.self),
      payments: try resolver.resolve(PaymentStore.self))
  }
}.build()

/// Runs `body` on the cooperative pool and waits for it: one task per sample, not per iteration.
func blockingAsync(_ body: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task {
    await body()
    done.signal()
  }
  done.wait()
}

/// An async persistent resolve once built, and a property wrapper read once resolved.
func wrapperRows() -> [Row] {
  let joinery = JoineryContainers.main
  let stored = opaque(Stored())
  blockingAsync { _ = try! await joinery.resolveAsync(AsyncSettings.self) }
  let screen = opaque(Screen())
  _ = screen.settings
  return [
    Row(
      title: "async persistent, already built", floor: "hand-written",
      variants: [
        Variant(
          name: "hand-written",
          run: { iterations in
            blockingAsync {
              for _ in 0..<iterations { blackHole(await sharedSettingsAsync(opaque(stored))) }
            }
          }),
        Variant(
          name: "Joinery",
          run: { iterations in
            blockingAsync {
              for _ in 0..<iterations {
                blackHole(try! await joinery.resolveAsync(AsyncSettings.self))
              }
            }
          }),
      ]),
    Row(
      title: "async resolution over a graph binding: two synchronous siblings share it",
      floor: "hand-written",
      variants: [
        Variant(
          name: "hand-written",
          run: { iterations in
            blockingAsync {
              for _ in 0..<iterations { blackHole(await makeCheckoutAsync()) }
            }
          }),
        Variant(
          name: "Joinery",
          run: { iterations in
            blockingAsync {
              for _ in 0..<iterations {
                blackHole(try! await checkoutContainer.resolveAsync(CheckoutHandler.self))
              }
            }
          }),
      ]),
    Row(
      title: "property wrapper, already resolved", floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(opaque(stored).settings) }),
        Variant(name: "Joinery @Injected", run: loop { blackHole(opaque(screen).settings) }),
      ]),
  ]
}
