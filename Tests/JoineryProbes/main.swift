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
