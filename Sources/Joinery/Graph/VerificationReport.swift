/// What ``Container/verify(arguments:isolation:)`` did.
///
/// Printed, it is a summary: how many bindings were created, and which were skipped and why.
/// The graph prints only when asked for.
///
/// ```swift
/// let report = try container.verify()
/// print(report)  // Verified 118 bindings; skipped 2: …
/// print(report.graph.mermaid)
/// ```
public struct VerificationReport: Sendable, CustomStringConvertible {
  /// The bindings created successfully, sorted by key.
  public let verified: [BindingKey]
  /// The bindings not created because they take runtime arguments or have async factories.
  public let skipped: [BindingInfo]
  /// The container's graph, plus the edges factories were observed to take that no binding
  /// declared.
  public let graph: DependencyGraph

  /// A summary: the counts, each skipped binding with where it is bound, and the size of the
  /// graph (print ``graph`` to see it).
  public var description: String {
    var lines = [
      "Verified \(verified.count) binding\(verified.count == 1 ? "" : "s"); skipped "
        + "\(skipped.count)\(skipped.isEmpty ? "." : ":")"
    ]
    for binding in skipped { lines.append("- \(binding.key) (bound at \(binding.location))") }
    lines.append(
      "Graph: \(graph.nodes.count) bindings, \(graph.edges.count) edges "
        + "(\(graph.edges.filter(\.isObserved).count) observed); print report.graph.mermaid, "
        + ".dot or .tree(from:) to see it.")
    return lines.joined(separator: "\n")
  }
}
