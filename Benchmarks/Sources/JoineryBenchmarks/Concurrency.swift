import Foundation
import Joinery
import Swinject

/// Total throughput of two threads against one, for the same work.
func twoThreadRatio(_ work: @escaping @Sendable (Int) -> Void) -> Double {
  let iterations = 2_000_000
  work(iterations / 10)
  let clock = ContinuousClock()
  var single: [Duration] = []
  var double: [Duration] = []
  for _ in 0..<Harness.repetitions {
    let start = clock.now
    work(iterations)
    single.append(clock.now - start)
    let group = DispatchGroup()
    let begin = clock.now
    for _ in 0..<2 {
      group.enter()
      Thread {
        work(iterations)
        group.leave()
      }.start()
    }
    group.wait()
    double.append(clock.now - begin)
  }
  let one = single.sorted()[single.count / 2]
  let two = double.sorted()[double.count / 2]
  // Two threads did twice the work.
  return 2 * (one / two)
}

func concurrencyTable() -> String {
  let joinery = JoineryContainers.main
  // Swinject's resolver is not Sendable; `synchronize()` is its documented way to share it.
  nonisolated(unsafe) let swinject = SwinjectContainers.main.synchronize()
  let rows: [(String, @Sendable (Int) -> Void)] = [
    (
      "hand-written, 4-object graph",
      { n in for _ in 0..<n { keep(ServiceA(b: ServiceB(c: ServiceC()), c: ServiceC())) } }
    ),
    (
      // The bound for any API that hands out one shared object: both threads retain and
      // release the same reference count.
      "hand-written, one shared object returned by a function",
      { n in for _ in 0..<n { keep(sharedSettings()) } }
    ),
    (
      "Joinery, persistent",
      { n in for _ in 0..<n { keep(try! joinery.resolve(Settings.self)) } }
    ),
    (
      "Joinery, ephemeral 4-object graph",
      { n in for _ in 0..<n { keep(try! joinery.resolve(ServiceA.self)) } }
    ),
    (
      // Many scopes at once: each thread makes its own scopes, which share the root.
      "Joinery, request scope (make, resolve a handler over 2 scoped objects)",
      { n in
        for _ in 0..<n / 10 {
          keep(try! ScopeContainers.root.makeScope().resolve(RequestHandler.self))
        }
      }
    ),
    (
      "Swinject (synchronized), persistent",
      { n in for _ in 0..<n / 20 { keep(swinject.resolve(Settings.self)!) } }
    ),
    (
      "Swinject (synchronized), transient 4-object graph",
      { n in for _ in 0..<n / 20 { keep(swinject.resolve(ServiceA.self)!) } }
    ),
  ]
  var lines = ["| two threads at once | total throughput vs one thread |", "|---|---:|"]
  for (title, work) in rows {
    lines.append(String(format: "| \(title) | %.2f× |", twoThreadRatio(work)))
    FileHandle.standardError.write(Data("measured \(title)\n".utf8))
  }
  return lines.joined(separator: "\n")
}

/// Keeps a result alive without sharing anything between threads.
@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }

// Made at run time: a constant global object would be immortal, and skip reference counting.
let sharedSettingsStore = opaque(Settings())

/// A shared object returned owned, as any resolve returns it. Called through a function value:
/// a plain function in this module would be rewritten by the optimizer to return it without a
/// retain, which no API in another module gets.
let sharedSettingsFunction: @Sendable () -> Settings = opaque(makeSharedSettingsFunction())

func makeSharedSettingsFunction() -> @Sendable () -> Settings {
  { sharedSettingsStore }
}
@inline(__always) func sharedSettings() -> Settings { sharedSettingsFunction() }
