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
    /// The assembly `from` is private to, if it is a private binding: which node of its key.
    var fromPrivateTo: ObjectIdentifier? = nil
    /// The assembly `to` is private to, if it is a private binding.
    var toPrivateTo: ObjectIdentifier? = nil

    var fromNode: NodeID { NodeID(key: from, privateTo: fromPrivateTo) }
    var toNode: NodeID { NodeID(key: to, privateTo: toPrivateTo) }
  }

  /// One node: a key, and for a private binding the assembly it is private to (two assemblies
  /// may each keep a binding of one key).
  struct NodeID: Hashable {
    let key: BindingKey
    let privateTo: ObjectIdentifier?
  }

  /// A requirement an assembly declared, and the node that meets it, if any.
  struct RequirementNode: Sendable {
    let requirement: Requirement
    let metBy: NodeID?
  }

  /// Every binding, sorted by key; ``BindingInfo/isChecked`` tells the ones whose dependencies
  /// `build()` checks.
  public let nodes: [BindingInfo]
  /// Every dependency, sorted by source then target.
  public let edges: [Edge]
  /// What the container's assemblies require (``Registrar/require(_:tag:fileID:line:)``), which
  /// the exports show inside their assemblies.
  let requirements: [RequirementNode]

  init(nodes: [BindingInfo], edges: [Edge], requirements: [RequirementNode] = []) {
    self.requirements = requirements
    // Two assemblies may each keep a private binding of one key: their names break the tie.
    self.nodes = nodes.sorted {
      ($0.key.sortKey, $0.assembly.map(TypeName.of) ?? "")
        < ($1.key.sortKey, $1.assembly.map(TypeName.of) ?? "")
    }
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
    DependencyGraph(nodes: nodes, edges: edges + more, requirements: requirements)
  }
}

extension BindingInfo {
  /// `FeedService (tag "x")`, as a graph node's title.
  var title: String { key.description }

  /// `persistent · FeedAssembly`, with `private` for a binding its assembly keeps, and
  /// `unchecked` when the factory declares nothing.
  var subtitle: String {
    "\(lifetime) · \(registerName)" + (isPrivate ? " · private" : "")
      + (isChecked ? "" : " · unchecked")
  }

  /// Its node in a graph.
  var node: DependencyGraph.NodeID {
    DependencyGraph.NodeID(
      key: key, privateTo: isPrivate ? assembly.map(ObjectIdentifier.init) : nil)
  }
}
