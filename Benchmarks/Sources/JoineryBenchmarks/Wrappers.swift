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
      title: "property wrapper, already resolved", floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(opaque(stored).settings) }),
        Variant(name: "Joinery @Injected", run: loop { blackHole(opaque(screen).settings) }),
      ]),
  ]
}
