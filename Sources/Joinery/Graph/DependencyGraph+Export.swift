extension DependencyGraph {
  /// The graph as a Mermaid flowchart: boxes for bindings (dashed when unchecked), solid arrows
  /// for declared dependencies, dotted ones for observed dependencies and for deferred ones
  /// (a `Provider` or `Lazy`, labelled "deferred").
  ///
  /// ```swift
  /// print(container.graph.mermaid)
  /// // graph LR
  /// //   n0["FeedService<br/>persistent · FeedAssembly"]
  /// //   ...
  /// ```
  public var mermaid: String {
    let ids = identifiers
    var lines = ["graph LR"]
    lines += groupLines(
      open: { id, name in "subgraph \(id)[\"\(name.mermaidEscaped)\"]" }, close: "end",
      node: { node in
        let label = "\(node.title.mermaidEscaped)<br/>\(node.subtitle.mermaidEscaped)"
        return "\(ids[node.node]!)[\"\(label)\"]" + (node.isChecked ? "" : ":::unchecked")
      },
      requirement: { index, key in
        "r\(index)([\"\("requires \(key)".mermaidEscaped)\"]):::requirement"
      })
    for edge in edges {
      guard let from = ids[edge.fromNode], let to = ids[edge.toNode] else { continue }
      let words = (edge.isFallback ? ["fallback"] : []) + (edge.isDeferred ? ["deferred"] : [])
      let label = words.isEmpty ? "" : "|\(words.joined(separator: ", "))|"
      let arrow = edge.isObserved || edge.isDeferred ? "-.->" : "-->"
      lines.append("  \(from) \(arrow)\(label) \(to)")
    }
    for (index, requirement) in requirements.enumerated() {
      guard let met = requirement.metBy.flatMap({ ids[$0] }) else { continue }
      lines.append("  r\(index) -.->|met by| \(met)")
    }
    lines.append("  classDef unchecked stroke-dasharray: 5 3")
    let privateIDs = nodes.filter(\.isPrivate).map { ids[$0.node]! }
    if !privateIDs.isEmpty {
      lines.append("  classDef private fill:#eeeeee,stroke:#888888")
      lines.append("  class \(privateIDs.joined(separator: ",")) private")
    }
    if !requirements.isEmpty {
      lines.append("  classDef requirement stroke-dasharray: 2 2")
    }
    return lines.joined(separator: "\n")
  }

  /// The graph in Graphviz DOT: render it with `dot -Tpng graph.dot -o graph.png`.
  ///
  /// ```swift
  /// print(container.graph.dot)
  /// // digraph Joinery {
  /// //   rankdir=LR;
  /// //   ...
  /// ```
  public var dot: String {
    let ids = identifiers
    var lines = [
      "digraph Joinery {",
      "  rankdir=LR;",
      "  node [shape=box, style=rounded, fontname=\"Helvetica\"];",
      "  edge [fontname=\"Helvetica\", fontsize=10];",
    ]
    lines += groupLines(
      open: { id, name in "subgraph cluster_\(id) {\n    label=\"\(name.dotEscaped)\";" },
      close: "}",
      node: { node in
        let label = "\(node.title.dotEscaped)\\n\(node.subtitle.dotEscaped)"
        var style = node.isChecked ? "" : ", style=\"rounded,dashed\""
        if node.isPrivate {
          style =
            ", style=\"rounded,filled\(node.isChecked ? "" : ",dashed")\", fillcolor=\"#eeeeee\""
        }
        return "\(ids[node.node]!) [label=\"\(label)\"\(style)];"
      },
      requirement: { index, key in
        "r\(index) [label=\"\("requires \(key)".dotEscaped)\", style=\"rounded,dotted\"];"
      })
    for edge in edges {
      guard let from = ids[edge.fromNode], let to = ids[edge.toNode] else { continue }
      var attributes: [String] = []
      if edge.isObserved { attributes.append("style=dashed") }
      if edge.isDeferred { attributes.append("style=dotted") }
      let words = (edge.isFallback ? ["fallback"] : []) + (edge.isDeferred ? ["deferred"] : [])
      if !words.isEmpty { attributes.append("label=\"\(words.joined(separator: ", "))\"") }
      let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
      lines.append("  \(from) -> \(to)\(suffix);")
    }
    for (index, requirement) in requirements.enumerated() {
      guard let met = requirement.metBy.flatMap({ ids[$0] }) else { continue }
      lines.append("  r\(index) -> \(met) [style=dotted, label=\"met by\"];")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// The dependencies of one binding as an indented tree.
  ///
  /// A binding already shown earlier in
  /// the tree is marked instead of repeated, so shared dependencies and cycles print once.
  ///
  /// ```swift
  /// print(container.graph.tree(from: BindingKey(FeedService.self)))
  /// // FeedService [persistent]
  /// // ├─ HTTPClient [persistent]
  /// // └─ EventLog [persistent]
  /// ```
  ///
  /// - Parameter root: The key of the binding to start from.
  /// - Returns: The tree, one binding per line.
  public func tree(from root: BindingKey) -> String {
    var byNode: [NodeID: BindingInfo] = [:]
    for node in nodes { byNode[node.node] = node }
    var children: [NodeID: [Edge]] = [:]
    for edge in edges { children[edge.fromNode, default: []].append(edge) }
    // The root is the binding for everyone of that key, else the one private binding of it.
    guard
      let rootNode = byNode[NodeID(key: root, privateTo: nil)]
        ?? nodes.first(where: { $0.key == root })
    else { return "\(root) (not bound)" }
    let grouped = isModular
    // Where the tree enters another assembly, and what is private, is marked.
    func marks(_ node: BindingInfo, below parent: BindingInfo?) -> String {
      var text = ""
      if grouped, let assembly = node.assembly,
        parent == nil
          || parent?.assembly.map(ObjectIdentifier.init)
            != ObjectIdentifier(assembly)
      {
        text += " (in \(TypeName.of(assembly)))"
      }
      if node.isPrivate { text += " (private)" }
      return text
    }
    var lines = [
      "\(rootNode.title) [\(rootNode.lifetime)]" + marks(rootNode, below: nil)
        + (rootNode.isChecked ? "" : " (unchecked)")
    ]
    var shown: Set<NodeID> = [rootNode.node]
    // Depth-first with an explicit stack: (edge, prefix, isLast).
    var stack: [(Edge, String, Bool)] = []
    func push(_ node: NodeID, prefix: String) {
      let edges = children[node] ?? []
      for (index, edge) in edges.enumerated().reversed() {
        stack.append((edge, prefix, index == edges.count - 1))
      }
    }
    push(rootNode.node, prefix: "")
    while let (edge, prefix, isLast) = stack.popLast() {
      let branch = isLast ? "└─ " : "├─ "
      let node = byNode[edge.toNode]
      var line = prefix + branch + (node?.title ?? edge.to.description)
      if let node { line += " [\(node.lifetime)]" + marks(node, below: byNode[edge.fromNode]) }
      if edge.isFallback { line += " (fallback)" }
      if edge.isObserved { line += " (observed)" }
      if edge.isDeferred { line += " (deferred)" }
      if shown.contains(edge.toNode) {
        lines.append(line + " (see above)")
        continue
      }
      if let node, !node.isChecked { line += " (unchecked)" }
      lines.append(line)
      shown.insert(edge.toNode)
      push(edge.toNode, prefix: prefix + (isLast ? "   " : "│  "))
    }
    return lines.joined(separator: "\n")
  }

  /// Whether the exports group nodes by assembly: when the graph spans several assemblies, or
  /// keeps a private binding or a requirement.
  private var isModular: Bool {
    !requirements.isEmpty || nodes.contains(where: \.isPrivate)
      || Set(nodes.compactMap { $0.assembly.map(ObjectIdentifier.init) }).count > 1
  }

  /// The nodes by assembly, for subgraphs.
  ///
  /// Each assembly's nodes and requirements (with their index among all requirements),
  /// assemblies sorted by name, then the nodes of none; one group without a name when the graph
  /// is not modular.
  private var groups:
    [(id: String, name: String?, nodes: [BindingInfo], requirements: [(Int, RequirementNode)])]
  {
    guard isModular else { return [(id: "", name: nil, nodes: nodes, requirements: [])] }
    var names: [ObjectIdentifier: String] = [:]
    var members: [ObjectIdentifier: [BindingInfo]] = [:]
    var loose: [BindingInfo] = []
    for node in nodes {
      guard let assembly = node.assembly else {
        loose.append(node)
        continue
      }
      let id = ObjectIdentifier(assembly)
      names[id] = TypeName.of(assembly)
      members[id, default: []].append(node)
    }
    var required: [ObjectIdentifier: [(Int, RequirementNode)]] = [:]
    for (index, requirement) in requirements.enumerated() {
      guard let module = requirement.requirement.module else { continue }
      let id = ObjectIdentifier(module.type)
      names[id] = module.name
      required[id, default: []].append((index, requirement))
    }
    let ordered = names.sorted { $0.value < $1.value }
    var result = ordered.enumerated().map { position, entry in
      (
        id: "a\(position)", name: Optional(entry.value), nodes: members[entry.key] ?? [],
        requirements: required[entry.key] ?? []
      )
    }
    if !loose.isEmpty { result.append((id: "", name: nil, nodes: loose, requirements: [])) }
    return result
  }

  /// The node lines of both exports: each assembly's nodes and requirements between `open` and
  /// `close` (indented one step more), the nodes of none at the top level.
  private func groupLines(
    open: (_ id: String, _ name: String) -> String, close: String,
    node: (BindingInfo) -> String, requirement: (_ index: Int, _ key: BindingKey) -> String
  ) -> [String] {
    var lines: [String] = []
    for group in groups {
      guard let name = group.name else {
        lines += group.nodes.map { "  " + node($0) }
        continue
      }
      lines.append("  " + open(group.id, name))
      lines += group.nodes.map { "    " + node($0) }
      lines += group.requirements.map { "    " + requirement($0, $1.requirement.key) }
      lines.append("  " + close)
    }
    return lines
  }

  /// `n0`, `n1`, … in node order.
  private var identifiers: [NodeID: String] {
    var ids: [NodeID: String] = [:]
    for (index, node) in nodes.enumerated() { ids[node.node] = "n\(index)" }
    return ids
  }
}

extension String {
  /// A label safe inside Mermaid's double quotes: entity codes for `#` and `"`, and line breaks
  /// shown as `\n` (a raw line break would end the node's definition).
  fileprivate var mermaidEscaped: String {
    escapingScalars {
      switch $0 {
      case "#": "#35;"
      case "\"": "#quot;"
      case "\n": "#92;n"
      case "\r": "#92;r"
      default: nil
      }
    }
  }

  /// A label safe inside a DOT quoted string: backslashes, quotes and line breaks escaped.
  fileprivate var dotEscaped: String {
    escapingScalars {
      switch $0 {
      case "\\": "\\\\"
      case "\"": "\\\""
      case "\n": "\\n"
      case "\r": "\\r"
      default: nil
      }
    }
  }
}
