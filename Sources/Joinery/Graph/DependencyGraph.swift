/// The bindings of a container and the dependencies between them, ready to print as Mermaid,
/// Graphviz DOT, or a plain-text tree.
///
/// Edges come from what bindings declare (autowired initializers, `dependsOn`, forwards) and,
/// after ``Container/verify(arguments:isolation:)``, from what unchecked factories were seen resolving.
///
/// ```swift
/// let graph = container.graph
/// print(graph.mermaid)                      // paste into a Markdown ```mermaid block
/// try graph.dot.write(toFile: "graph.dot")  // render with `dot -Tpng`
/// print(graph.tree(from: BindingKey(App.self)))
/// ```
///
/// Nodes and edges are sorted, so the same container always prints the same text.
public struct DependencyGraph: Sendable {
  /// One dependency between two bindings.
  public struct Edge: Sendable, Hashable {
    /// The binding that depends.
    public let from: BindingKey
    /// The binding that serves the dependency.
    public let to: BindingKey
    /// Whether the edge was seen when ``Container/verify(arguments:isolation:)`` ran the factory;
    /// `false` for an edge the binding declares, which `build()` checked.
    public let isObserved: Bool
    /// Whether a tagged dependency is served by the untagged binding.
    public let isFallback: Bool
    /// Whether the dependency is taken as a ``Provider`` or ``Lazy``: resolved when it is
    /// used, not when `from` is made, so it is no cycle and no captive.
    public let isDeferred: Bool
  }

  /// Every binding, sorted by key; ``BindingInfo/isChecked`` tells the ones whose dependencies
  /// `build()` checks.
  public let nodes: [BindingInfo]
  /// Every dependency, sorted by source then target.
  public let edges: [Edge]

  init(nodes: [BindingInfo], edges: [Edge]) {
    self.nodes = nodes.sorted { $0.key.sortKey < $1.key.sortKey }
    var unique: [Edge] = []
    var seen: Set<Edge> = []
    for edge in edges where seen.insert(edge).inserted { unique.append(edge) }
    self.edges = unique.sorted {
      // Declared before observed.
      ($0.from.sortKey, $0.to.sortKey, $0.isObserved ? 1 : 0) < (
        $1.from.sortKey, $1.to.sortKey, $1.isObserved ? 1 : 0
      )
    }
  }

  /// The graph with more edges, such as those ``Container/verify(arguments:isolation:)`` observed.
  func adding(_ more: [Edge]) -> DependencyGraph {
    DependencyGraph(nodes: nodes, edges: edges + more)
  }
}

extension BindingInfo {
  /// `FeedService (tag "x")`, as a graph node's title.
  var title: String { key.description }

  /// `persistent · FeedAssembly`, with `unchecked` when the factory declares nothing.
  var subtitle: String {
    "\(lifetime) · \(registerName)" + (isChecked ? "" : " · unchecked")
  }
}
