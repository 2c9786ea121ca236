/// Every declared dependency must be served by a binding: its own key, or (for a tagged
/// dependency that allows it) the untagged binding of its type.
struct MissingDependencyValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    // Described once, on the first missing dependency, for every near-miss search.
    var catalog: BindingCatalog?
    // A forward's target is checked by ForwardingTargetValidator.
    for index in graph.bindings.indices where graph.hasEdges(index) && !graph.isForward(index) {
      let edges = graph.edges(of: index)
      let binding = graph.bindings[index]
      for edge in edges
      where edge.target == nil && !edge.isExternal && !edge.isOptional && edge.refused == nil {
        let wanted = edge.dependency.key
        let described = catalog ?? BindingCatalog(graph.bindings)
        catalog = described
        let misses = NearMiss.find(for: wanted, in: described)
        var fixes = ["Bind \(wanted) in the assembly that owns it."]
        if let fix = described.contributionsFix(for: wanted, consumer: binding.key.shortName) {
          fixes =
            fix.isCollection
            ? [fix.text, "Or bind \(wanted) in the assembly that owns it."] : fixes + [fix.text]
        }
        fixes += misses.map { "Or use the near miss: \($0)." }
        if wanted.tag != nil, !edge.dependency.matching.allowsFallback {
          fixes.append("Or allow the fallback to the untagged \(wanted.shortName).")
        }
        let fallback =
          wanted.tag != nil && edge.dependency.matching.allowsFallback
          ? " (nor untagged, for the fallback)" : ""
        findings.append(
          Diagnostic(
            .missingDependency, .error, key: binding.key, bindings: [binding.info],
            message: "\(binding.key) depends on \(wanted), which is not bound\(fallback).",
            fixes: fixes))
      }
    }
  }
}
