/// A binding may depend on another assembly's binding only if that one is not private: what an
/// assembly keeps private (`private: true`) only its own bindings see.
struct PrivateDependencyValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    guard !graph.privateBindings.isEmpty else { return }
    for position in graph.bindings.indices where graph.hasEdges(position) {
      let consumer = graph.bindings[position]
      for edge in graph.edgeIndices(of: position) {
        guard let refused = graph.refusedTarget(ofEdge: edge) else { continue }
        findings.append(
          Self.refusal(consumer, graph.bindings[refused], graph.dependency(ofEdge: edge)))
      }
    }
  }

  /// The finding for `consumer` depending on `target`, which another assembly keeps private.
  static func refusal(
    _ consumer: AnyBinding, _ target: AnyBinding, _ dependency: DeclaredDependency
  ) -> Diagnostic {
    let owner = target.module?.name ?? "its assembly"
    let from = consumer.module.map { "\($0.name)'s " } ?? ""
    let wanted = dependency.key
    return Diagnostic(
      .privateDependency, .error, key: consumer.key, bindings: [consumer.info, target.info],
      message: """
        \(from)\(consumer.key) (\(consumer.location)) depends on \(wanted), which \(owner) keeps \
        private (\(target.location)): only \(owner)'s own bindings may depend on it.
        """,
      fixes: [
        "Depend on what \(owner) exports instead (a protocol it binds without `private: true`).",
        "Or, if \(wanted.shortName) is meant for other modules, drop `private: true` from its "
          + "binding in \(owner).",
        "To replace it in a test, declare the override inside "
          + "`registrar.overriding(\(owner).self) { registrar in … }`.",
      ])
  }
}
