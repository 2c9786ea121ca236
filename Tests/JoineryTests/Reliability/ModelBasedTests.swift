import Joinery
import Testing

/// A node of a random graph; its `marker` tells which declaration made it.
private final class Node: Sendable {
  let marker: String
  init(marker: String) { self.marker = marker }
}

/// A small deterministic generator, so every failure names a seed that replays it.
private struct SplitMix {
  var state: UInt64
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
  mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
}

/// One random configuration and what must happen to it: the reference model.
private struct Scenario {
  struct Declaration {
    let node: Int
    let assembly: Int
    let lifetime: Lifetime
    let edges: [Int]
    let isOverride: Bool
    var marker: String { "\(node)@\(assembly)\(isOverride ? "!" : "")" }
  }

  let nodes: Int
  let assemblies: Int
  var declarations: [Declaration] = []

  init(seed: UInt64) {
    var random = SplitMix(state: seed)
    // Mostly small graphs, one in ten with hundreds of bindings.
    nodes = random.chance(10) ? 100 + random.next(300) : 5 + random.next(40)
    assemblies = 1 + random.next(4)
    // Every fourth seed injects no mistakes and uses lifetimes that cannot be captive, so that
    // many configurations build and their resolution is checked too.
    let clean = seed % 4 == 0
    let lifetimes: [Lifetime] =
      clean ? [.persistent, .ephemeral] : [.persistent, .ephemeral, .cached, .graph, .transient]
    for node in 0..<nodes {
      var edges = (0..<random.next(3)).map { _ in node + 1 + random.next(6) }
        .filter { $0 < nodes || (!clean && random.chance(3)) }  // past the end: missing
      if !clean, random.chance(2), node > 0 { edges.append(random.next(node)) }  // may cycle
      let lifetime = lifetimes[random.next(lifetimes.count)]
      declarations.append(
        Declaration(
          node: node, assembly: random.next(assemblies), lifetime: lifetime, edges: edges,
          isOverride: false))
      if !clean, random.chance(3) {  // a duplicate in some assembly
        declarations.append(
          Declaration(
            node: node, assembly: random.next(assemblies), lifetime: lifetime, edges: edges,
            isOverride: false))
      }
      if random.chance(5) {  // an override
        declarations.append(
          Declaration(
            node: node, assembly: assemblies, lifetime: lifetime, edges: edges, isOverride: true))
      }
    }
  }

  /// The declaration that wins for a node, if exactly one may.
  func winner(of node: Int) -> Declaration? {
    let all = declarations.filter { $0.node == node }
    let overrides = all.filter(\.isOverride)
    if !overrides.isEmpty { return overrides.count == 1 ? overrides[0] : nil }
    return all.count == 1 ? all[0] : nil
  }

  /// The finding codes `build()` must report, sorted.
  var expectedCodes: [String] {
    var codes: [String] = []
    var winners: [Int: Declaration] = [:]
    for node in 0..<nodes {
      let all = declarations.filter { $0.node == node && !$0.isOverride }
      if all.count > 1 { codes.append("duplicateBinding") }
      let overrides = declarations.filter { $0.node == node && $0.isOverride }
      if overrides.count > 1 { codes.append("duplicateBinding") }
      // Build stand-in: the override, else the earliest regular declaration.
      winners[node] = overrides.first ?? all.first
    }
    for node in 0..<nodes {
      guard let declaration = winners[node] else { continue }
      for edge in declaration.edges where edge >= nodes { codes.append("missingDependency") }
      guard declaration.lifetime == .persistent else { continue }
      // A persistent instance keeps what it depends on, and what its ephemeral and graph
      // dependencies (made for it, never captives) depend on, transitively. Its captures are
      // one finding.
      var reached: Set<Int> = [node]
      var pending = [node]
      var captures = false
      while let current = pending.popLast() {
        for edge in winners[current]!.edges where edge < nodes && reached.insert(edge).inserted {
          let dependency = winners[edge]!.lifetime
          if [Lifetime.cached, .transient].contains(dependency) { captures = true }
          if [Lifetime.ephemeral, .graph].contains(dependency) { pending.append(edge) }
        }
      }
      if captures { codes.append("captiveDependency") }
    }
    codes += Array(repeating: "dependencyCycle", count: cycles(winners))
    return codes.sorted()
  }

  /// The number of strongly connected components that contain a cycle.
  private func cycles(_ winners: [Int: Declaration]) -> Int {
    var index = [Int: Int]()
    var low = [Int: Int]()
    var stack: [Int] = []
    var onStack = Set<Int>()
    var counter = 0
    var found = 0
    func visit(_ node: Int) {
      index[node] = counter
      low[node] = counter
      counter += 1
      stack.append(node)
      onStack.insert(node)
      for edge in winners[node]?.edges ?? [] where edge < nodes {
        if index[edge] == nil {
          visit(edge)
          low[node] = min(low[node]!, low[edge]!)
        } else if onStack.contains(edge) {
          low[node] = min(low[node]!, index[edge]!)
        }
      }
      if low[node] == index[node] {
        var members: [Int] = []
        while let member = stack.popLast() {
          onStack.remove(member)
          members.append(member)
          if member == node { break }
        }
        if members.count > 1 || (winners[node]?.edges.contains(node) ?? false) { found += 1 }
      }
    }
    for node in 0..<nodes where index[node] == nil { visit(node) }
    return found
  }

  func builder(order: [Int]) -> ContainerBuilder {
    var builder = ContainerBuilder()
    for assembly in order {
      builder = builder.adding(
        Bindings("assembly \(assembly)") { [declarations] registrar in
          for declaration in declarations where declaration.assembly == assembly {
            Self.declare(declaration, in: &registrar)
          }
        })
    }
    builder = builder.overriding(
      with: Bindings("overrides") { [declarations, assemblies] registrar in
        for declaration in declarations where declaration.assembly == assemblies {
          Self.declare(declaration, in: &registrar)
        }
      })
    return builder
  }

  static func declare(_ declaration: Declaration, in registrar: inout Registrar) {
    let marker = declaration.marker
    let edges = declaration.edges
    registrar.bind(
      Node.self, tag: declaration.node, lifetime: .init(declaration.lifetime),
      dependsOn: edges.map { BindingKey(Node.self, tag: BindingTag($0)) }
    ) { resolver in
      for edge in edges { _ = try resolver.resolve(Node.self, tag: edge, matching: .exact) }
      return Node(marker: marker)
    }
  }
}

@Suite("Model-based random configurations")
struct ModelBasedTests {
  @Test("build() and resolve agree with the reference model, in any assembly order")
  func randomConfigurations() throws {
    var checked = 0
    for seed in UInt64(1)...300 {
      let scenario = Scenario(seed: seed)
      var reports: [String] = []
      for permutation in 0..<3 {
        var order = Array(0..<scenario.assemblies)
        var random = SplitMix(state: seed &* 31 &+ UInt64(permutation))
        order.shuffle(using: &random)
        do {
          let container = try scenario.builder(order: order).build()
          #expect(
            scenario.expectedCodes.isEmpty,
            "seed \(seed): built, expected \(scenario.expectedCodes)")
          for node in 0..<scenario.nodes {
            let winner = try #require(scenario.winner(of: node), "seed \(seed) node \(node)")
            let first = try container.resolve(Node.self, tag: node)
            let second = try container.resolve(Node.self, tag: node)
            #expect(first.marker == winner.marker, "seed \(seed) node \(node): wrong binding won")
            let shared = [Lifetime.persistent, .cached, .transient].contains(winner.lifetime)
            #expect((first === second) == shared, "seed \(seed) node \(node) \(winner.lifetime)")
          }
          reports.append("built")
        } catch let error as BuildError {
          let codes = error.diagnostics.filter(\.isError).map(\.code.description)
            .sorted()
          #expect(codes == scenario.expectedCodes, "seed \(seed)")
          reports.append(error.debugDescription)
        }
      }
      #expect(Set(reports).count == 1, "seed \(seed): the report depends on assembly order")
      checked += 1
    }
    #expect(checked == 300)
  }
}

extension SplitMix: RandomNumberGenerator {
  mutating func next() -> UInt64 { UInt64(next(Int.max)) }
}
