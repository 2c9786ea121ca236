/// Declared dependencies must not form a cycle.
///
/// Finds every strongly connected component with
/// Tarjan's algorithm (iteratively, so a deep graph cannot overflow the stack), and reports one
/// cycle per component with its full path.
struct CycleValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for component in Self.cycles(graph) {
      let members = Set(component)
      let start = component.min { graph.bindings[$0].key.sortKey < graph.bindings[$1].key.sortKey }!
      let cycle = Self.path(from: start, within: members, graph)
      let keys = cycle.map { graph.bindings[$0].key }
      let text = (keys + [keys[0]]).map(\.description).joined(separator: " → ")
      findings.append(
        Diagnostic(
          .dependencyCycle, .error, key: keys[0], bindings: cycle.map { graph.bindings[$0].info },
          message: "Dependency cycle: \(text).",
          fixes: [
            "Break the cycle: let \(keys[0]) take `Lazy<\(TypeName.of(keys[1 % keys.count].type))>` or "
              + "`Provider<\(TypeName.of(keys[1 % keys.count].type))>` instead (resolved on first use, after "
              + "construction), or set a property later.",
            "Or move what they share into a third binding both depend on.",
          ]))
    }
  }

  /// The strongly connected components that contain a cycle (more than one binding, or one that
  /// depends on itself), each a list of binding positions.
  ///
  /// A binding with no edges is never
  /// part of one, so the common case — most bindings declare nothing or only leaves — allocates
  /// nothing per binding.
  static func cycles(_ graph: DeclaredGraph) -> [[Int]] {
    let count = graph.bindings.count
    var index = [Int](repeating: -1, count: count)
    var low = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    var result: [[Int]] = []
    var next = 0
    // (node, position in its edge list)
    var work: [(Int, Int)] = []
    for root in 0..<count where index[root] == -1 && graph.hasEdges(root) {
      work.append((root, 0))
      while let (node, edge) = work.last {
        if edge == 0 {
          index[node] = next
          low[node] = next
          next += 1
          stack.append(node)
          onStack[node] = true
        }
        // Indices, not edges: reading one field copies (and retains) nothing.
        let edges = graph.edgeIndices(of: node)
        var descended = false
        var position = edge
        while position < edges.count {
          defer { position += 1 }
          guard let target = graph.immediateTarget(ofEdge: edges.lowerBound + position) else {
            continue
          }
          if index[target] == -1 {
            work[work.count - 1].1 = position + 1
            work.append((target, 0))
            descended = true
            break
          } else if onStack[target] {
            low[node] = min(low[node], index[target])
          }
        }
        if descended { continue }
        work.removeLast()
        if let (parent, _) = work.last { low[parent] = min(low[parent], low[node]) }
        guard low[node] == index[node] else { continue }
        if stack.last == node {
          // A component of one binding: a cycle only if it depends on itself.
          stack.removeLast()
          onStack[node] = false
          if edges.contains(where: { graph.immediateTarget(ofEdge: $0) == node }) {
            result.append([node])
          }
          continue
        }
        var component: [Int] = []
        while let member = stack.popLast() {
          onStack[member] = false
          component.append(member)
          if member == node { break }
        }
        result.append(component)
      }
    }
    return result
  }

  /// A shortest cycle through `start` inside one component (breadth-first, deterministic).
  static func path(from start: Int, within members: Set<Int>, _ graph: DeclaredGraph) -> [Int] {
    var previous: [Int: Int] = [:]
    var queue = [start]
    var head = 0
    while head < queue.count {
      let node = queue[head]
      head += 1
      for edge in graph.edges(of: node) {
        guard let target = edge.target, !edge.isDeferred, members.contains(target) else { continue }
        if target == start {
          var cycle = [node]
          var current = node
          while current != start, let before = previous[current] {
            cycle.append(before)
            current = before
          }
          return cycle.reversed()
        }
        if previous[target] == nil {
          previous[target] = node
          queue.append(target)
        }
      }
    }
    return [start]
  }
}
