/// With ``ContainerBuilder/requiresExactTags`` on, a tagged dependency must be served by a
/// binding with that tag, not by the untagged fallback.
struct ExactTagValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    guard graph.requiresExactTags else { return }
    for index in graph.bindings.indices {
      let edges = graph.edges(of: index)
      let binding = graph.bindings[index]
      for edge in edges where edge.fellBack {
        findings.append(
          Diagnostic(
            .missingDependency, .error, key: binding.key, bindings: [binding.info],
            message: """
              \(binding.key) depends on \(edge.dependency.key), which only the untagged \
              \(edge.dependency.key.shortName) serves (a fallback), and exact tags are required.
              """,
            fixes: [
              "Bind \(edge.dependency.key).",
              "Or depend on the untagged \(edge.dependency.key.shortName) explicitly.",
            ]))
      }
    }
  }
}
