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
    for node in nodes {
      let id = ids[node.key]!
      let label = "\(node.title.mermaidEscaped)<br/>\(node.subtitle.mermaidEscaped)"
      lines.append("  \(id)[\"\(label)\"]" + (node.isChecked ? "" : ":::unchecked"))
    }
    for edge in edges {
      guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
      let words = (edge.isFallback ? ["fallback"] : []) + (edge.isDeferred ? ["deferred"] : [])
      let label = words.isEmpty ? "" : "|\(words.joined(separator: ", "))|"
      let arrow = edge.isObserved || edge.isDeferred ? "-.->" : "-->"
      lines.append("  \(from) \(arrow)\(label) \(to)")
    }
    lines.append("  classDef unchecked stroke-dasharray: 5 3")
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
    for node in nodes {
      let id = ids[node.key]!
      let label = "\(node.title.dotEscaped)\\n\(node.subtitle.dotEscaped)"
      let style = node.isChecked ? "" : ", style=\"rounded,dashed\""
      lines.append("  \(id) [label=\"\(label)\"\(style)];")
    }
    for edge in edges {
      guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
      var attributes: [String] = []
      if edge.isObserved { attributes.append("style=dashed") }
      if edge.isDeferred { attributes.append("style=dotted") }
      let words = (edge.isFallback ? ["fallback"] : []) + (edge.isDeferred ? ["deferred"] : [])
      if !words.isEmpty { attributes.append("label=\"\(words.joined(separator: ", "))\"") }
      let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
      lines.append("  \(from) -> \(to)\(suffix);")
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
    var byKey: [BindingKey: BindingInfo] = [:]
    for node in nodes { byKey[node.key] = node }
    var children: [BindingKey: [Edge]] = [:]
    for edge in edges { children[edge.from, default: []].append(edge) }
    guard let rootNode = byKey[root] else { return "\(root) (not bound)" }
    var lines = [
      "\(rootNode.title) [\(rootNode.lifetime)]"
        + (rootNode.isChecked ? "" : " (unchecked)")
    ]
    var shown: Set<BindingKey> = [root]
    // Depth-first with an explicit stack: (edge, prefix, isLast).
    var stack: [(Edge, String, Bool)] = []
    func push(_ key: BindingKey, prefix: String) {
      let edges = children[key] ?? []
      for (index, edge) in edges.enumerated().reversed() {
        stack.append((edge, prefix, index == edges.count - 1))
      }
    }
    push(root, prefix: "")
    while let (edge, prefix, isLast) = stack.popLast() {
      let branch = isLast ? "└─ " : "├─ "
      let node = byKey[edge.to]
      var line = prefix + branch + (node?.title ?? edge.to.description)
      if let node { line += " [\(node.lifetime)]" }
      if edge.isFallback { line += " (fallback)" }
      if edge.isObserved { line += " (observed)" }
      if edge.isDeferred { line += " (deferred)" }
      if shown.contains(edge.to) {
        lines.append(line + " (see above)")
        continue
      }
      if let node, !node.isChecked { line += " (unchecked)" }
      lines.append(line)
      shown.insert(edge.to)
      push(edge.to, prefix: prefix + (isLast ? "   " : "│  "))
    }
    return lines.joined(separator: "\n")
  }

  /// `n0`, `n1`, … in node order.
  private var identifiers: [BindingKey: String] {
    var ids: [BindingKey: String] = [:]
    for (index, node) in nodes.enumerated() { ids[node.key] = "n\(index)" }
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
