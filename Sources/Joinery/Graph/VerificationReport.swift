/// What ``Container/verify(arguments:)`` did.
///
/// ```swift
/// let report = try container.verify()
/// print(report.verified.count, "bindings created;", report.skipped.count, "need arguments")
/// print(report.graph.mermaid)
/// ```
public struct VerificationReport: Sendable {
  /// The bindings created successfully, sorted by key.
  public let verified: [BindingKey]
  /// The bindings not created because they take runtime arguments or have async factories.
  public let skipped: [BindingInfo]
  /// The container's graph, plus the edges factories were observed to take that no binding
  /// declared.
  public let graph: DependencyGraph
}
