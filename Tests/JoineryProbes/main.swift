import Foundation
import Joinery

// Cases the test suite runs in a child process: on the process's main thread (which the test
// runner never uses), or where a defect would crash or hang the process. Each prints what
// happened; the tests read it. Usage: JoineryProbes CASE
let name = CommandLine.arguments.dropFirst().first ?? ""
print("on the main thread: \(Thread.isMainThread)")
switch name {
case "deep-chain-main-thread":
  var builder = ContainerBuilder(ProbeChain(depth: 100_000))
  builder.maximumResolutionDepth = 1_000_000
  let container = try builder.build()
  do throws(ResolutionError) {
    print("resolved \(try container.resolve(Int.self, tag: 0))")
  } catch {
    print(error.code)
    print(error.debugDescription)
  }
case "main-actor-plain-resolve":
  // Top-level code runs on the main actor, on the main thread: a plain `resolve` of a main-actor
  // binding works, and `build()` creates an eager main-actor persistent.
  let container = try ContainerBuilder(ProbeScreens()).build()
  print("eager models made by build: \(ProbeScreens.made.withLock { $0 })")
  do throws(ResolutionError) {
    let screen = try container.resolve(ProbeScreen.self)
    print("plain resolve: \(screen.model.title)")
    print("same model: \(screen.model === (try container.resolve(ProbeModel.self)))")
  } catch {
    print(error.debugDescription)
  }
default:
  print("no probe named '\(name)'")
  exit(2)
}

/// Int tagged n depends on Int tagged n + 1, down to `depth`.
struct ProbeChain: Assembly {
  let depth: Int
  func register(in registrar: inout Registrar) {
    for level in 0..<depth {
      registrar.bind(Int.self, tag: level) { resolver in
        try resolver.resolve(Int.self, tag: level + 1, matching: .exact) + 1
      }
    }
    registrar.bind(Int.self, tag: depth, instance: 0)
  }
}

@MainActor final class ProbeModel {
  let title = "model"
}

@MainActor final class ProbeScreen {
  let model: ProbeModel
  init(model: ProbeModel) { self.model = model }
}

struct ProbeScreens: Assembly {
  static let made = NSLockedCount()
  func register(in registrar: inout Registrar) {
    registrar.bindMainActor(ProbeModel.self, lifetime: .persistent(eager: true)) { _ in
      ProbeScreens.made.withLock { $0 += 1 }
      return ProbeModel()
    }
    registrar.bindMainActor(ProbeScreen.self, to: ProbeScreen.init(model:))
  }
}

final class NSLockedCount: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func withLock<R>(_ body: (inout Int) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
