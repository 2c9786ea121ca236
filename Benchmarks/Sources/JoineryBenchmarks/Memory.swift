import Foundation
import Joinery
import MallocCounter
import Swinject

/// Heap bytes per binding and heap growth over many resolves.
func memoryTable() -> String {
  let count = 10_000
  let phantoms = PhantomSet(count: count)
  _ = try! ContainerBuilder(phantoms).build()  // type metadata, once
  do {
    let warm = Swinject.Container()
    phantoms.registerSwinject(warm)
  }
  var lines = ["| memory | Joinery | Swinject |", "|---|---:|---:|"]
  let before = malloc_counter_bytes_in_use()
  let joinery = try! ContainerBuilder(phantoms).build()
  let middle = malloc_counter_bytes_in_use()
  let swinject = Swinject.Container()
  phantoms.registerSwinject(swinject)
  let after = malloc_counter_bytes_in_use()
  lines.append(
    "| container bytes per binding (10,000 persistent types, none resolved) | "
      + "\(Int(middle) - Int(before)) B / \(count) = \((Int(middle) - Int(before)) / count) B | "
      + "\((Int(after) - Int(middle)) / count) B |")
  blackHole(joinery)
  blackHole(swinject)

  // What a scope holds for each scoped instance it made: the instance and its place in the scope.
  let scoped = 2_000
  let scopes = try! ContainerBuilder(
    Bindings { registrar in
      for tag in 0..<scoped {
        registrar.bind(Link10.self, tag: tag, lifetime: .scoped, to: Link10.init)
      }
    }
  ).build()
  do {
    let warm = scopes.makeScope()
    for tag in 0..<scoped { blackHole(try! warm.resolve(Link10.self, tag: tag)) }
    blockingAsync { try! await warm.close() }
  }
  let scope = scopes.makeScope()
  let beforeScoped = malloc_counter_bytes_in_use()
  for tag in 0..<scoped { blackHole(try! scope.resolve(Link10.self, tag: tag)) }
  let afterScoped = malloc_counter_bytes_in_use()
  lines.append(
    "| scope bytes per scoped instance (2,000 scoped bindings resolved in one scope, "
      + "instances included) | \((Int(afterScoped) - Int(beforeScoped)) / scoped) B | — |")
  blockingAsync { try! await scope.close() }

  let resolves = 1_000_000
  let container = JoineryContainers.main
  let swinjectMain = SwinjectContainers.main
  let cases: [(String, () -> Void, () -> Void)] = [
    (
      "ephemeral", { blackHole(try! container.resolve(ServiceA.self)) },
      { blackHole(swinjectMain.resolve(ServiceA.self)!) }
    ),
    (
      "graph", { blackHole(try! container.resolve(ServiceA.self, tag: "graph")) },
      { blackHole(swinjectMain.resolve(ServiceA.self, name: "graph")!) }
    ),
    (
      "persistent", { blackHole(try! container.resolve(Settings.self)) },
      { blackHole(swinjectMain.resolve(Settings.self)!) }
    ),
    (
      "transient", { blackHole(try! container.resolve(Hello.self)) },
      { blackHole(swinjectMain.resolve(Hello.self)!) }
    ),
  ]
  for (name, joineryResolve, swinjectResolve) in cases {
    for _ in 0..<1_000 {
      joineryResolve()
      swinjectResolve()
    }
    let start = malloc_counter_bytes_in_use()
    for _ in 0..<resolves { joineryResolve() }
    let middle = malloc_counter_bytes_in_use()
    for _ in 0..<resolves { swinjectResolve() }
    let end = malloc_counter_bytes_in_use()
    lines.append(
      "| heap growth over 1,000,000 \(name) resolves | \(Int(middle) - Int(start)) B | "
        + "\(Int(end) - Int(middle)) B |")
    FileHandle.standardError.write(Data("memory \(name)\n".utf8))
  }
  return lines.joined(separator: "\n")
}
