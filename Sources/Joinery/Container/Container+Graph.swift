extension Container {
  /// The container's bindings and their declared dependencies.
  ///
  /// ```swift
  /// print(container.graph.mermaid)
  /// ```
  public var graph: DependencyGraph {
    var edges: [DependencyGraph.Edge] = []
    // Contributions share their key with each other, so the keyed export leaves them out.
    let bindings = all.filter { $0.contributionIndex == nil }
    for binding in bindings {
      for dependency in binding.dependencies ?? [] {
        let exact = table.binding(for: dependency.key)
        var target = exact
        if target == nil, dependency.key.tag != nil, dependency.matching.allowsFallback {
          target = table.binding(
            for: BindingKey(dependency.key.type, argumentTypes: dependency.key.argumentTypes))
        }
        guard let target else { continue }
        edges.append(
          DependencyGraph.Edge(
            from: binding.key, to: target.key, kind: .declared, isFallback: exact == nil))
      }
    }
    let nodes = bindings.map {
      DependencyGraph.Node(binding: $0.info, isChecked: $0.dependencies != nil)
    }
    return DependencyGraph(nodes: nodes, edges: edges)
  }
}
