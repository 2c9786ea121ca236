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
case "injected-trap-message":
  // A property read with nothing to resolve from stops the program: the message must say what
  // to change. Written unbuffered, so the test sees that the probe got this far.
  final class Orphan: Sendable { let clock = Injected<ProbeClock>() }
  FileHandle.standardError.write(Data("reading\n".utf8))
  _ = Orphan().clock.wrappedValue
  print("not reached")
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
case "graph-lock-against-creation-gate":
  // Thread A runs a resolveAsync whose factory makes a synchronous resolve, which holds the
  // resolution's graph lock, and needs the persistent `ProbeTrigger`; thread B is making it, and
  // its factory reads a Lazy made in that resolveAsync, which needs the same graph lock.
  let container = try ContainerBuilder(ProbeGraphLock()).build()
  ProbeGraphLock.shared.withLock { $0.container = container }
  // A task, waited for here: top-level code that awaits would make the whole file async.
  let threadADone = DispatchSemaphore(value: 0)
  Task.detached {
    do {
      _ = try await container.resolveAsync(ProbeRoot.self)
      print("A: resolved")
    } catch let error as ResolutionError {
      print("A: \(error.code)")
    } catch {
      print("A: \(error)")
    }
    threadADone.signal()
  }
  threadADone.wait()
  ProbeGraphLock.threadBDone.wait()
  print(ProbeGraphLock.shared.withLock { $0.outcomeB })
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

final class ProbeWork: Sendable {}
final class ProbeTrigger: Sendable {}
final class ProbeRoot: Sendable {}
final class ProbeLater: Sendable {
  let later: Lazy<ProbeWork>
  init(later: Lazy<ProbeWork>) { self.later = later }
}
final class ProbeConsumer: Sendable {
  init(trigger: ProbeTrigger) {}
}

struct ProbeGraphLockState {
  var container: Container?
  var later: ProbeLater?
  var outcomeB = "B: not run"
}

struct ProbeGraphLock: Assembly {
  static let shared = NSLockedValue(ProbeGraphLockState())
  static let threadBHoldsGate = DispatchSemaphore(value: 0)
  static let threadAHoldsGraph = DispatchSemaphore(value: 0)
  static let threadBDone = DispatchSemaphore(value: 0)

  func register(in registrar: inout Registrar) {
    registrar.bind(ProbeWork.self, lifetime: .graph, to: ProbeWork.init)
    registrar.bind(ProbeLater.self, to: ProbeLater.init(later:))
    registrar.bind(ProbeTrigger.self, lifetime: .persistent) { _ in
      // Thread B holds this binding's creation gate.
      Self.threadBHoldsGate.signal()
      Self.threadAHoldsGraph.wait()
      usleep(200_000)  // thread A is now waiting for this gate
      let later = Self.shared.withLock { $0.later }
      _ = try later?.later.get()
      return ProbeTrigger()
    }
    registrar.bind(ProbeConsumer.self) { resolver in
      Self.threadAHoldsGraph.signal()
      return ProbeConsumer(trigger: try resolver.resolve())
    }
    registrar.bindAsync(ProbeRoot.self) { (resolver: AsyncResolver) async throws -> ProbeRoot in
      let later = try resolver.resolve(ProbeLater.self)
      Self.shared.withLock { $0.later = later }
      Thread {
        let container = Self.shared.withLock { $0.container }!
        let outcome: String
        do {
          _ = try container.resolve(ProbeTrigger.self)
          outcome = "B: resolved"
        } catch {
          outcome = "B: \((error as? ResolutionError)?.code.description ?? "\(error)")"
        }
        Self.shared.withLock { $0.outcomeB = outcome }
        Self.threadBDone.signal()
      }.start()
      Self.threadBHoldsGate.wait()
      _ = try resolver.resolve(ProbeConsumer.self)
      return ProbeRoot()
    }
  }
}

final class NSLockedValue<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}

final class ProbeClock: Sendable {}
