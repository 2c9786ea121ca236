/// A forwarding binding needs a target that makes instances: bound, and not itself a forward.
struct ForwardingTargetValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for binding in graph.bindings {
      guard let forward = binding.forwardTargetKey else { continue }
      let target = graph.binding(for: forward)
      if target == nil || target?.forwardTargetKey != nil {
        let bound = graph.bindingsInChain(ofType: forward.type).map(\.key)
        let problem =
          if target != nil {
            "\(forward) is itself a forward; forward to the binding that makes the instance"
          } else if bound.isEmpty {
            "nothing is bound to \(forward.typeName)"
          } else {
            "\(forward) is not bound; \(forward.typeName) is bound only as "
              + bound.map { "`\($0)`" }.joined(separator: ", ")
          }
        findings.append(
          Diagnostic(
            .invalidForwardingTarget, .error, key: binding.key,
            bindings: [binding.info] + (target.map { [$0.info] } ?? []),
            message: "\(binding.key) forwards to \(forward), but \(problem).",
            fixes: [
              "Bind \(forward.typeName) with a factory or an instance, and forward to it.",
              "Or bind \(binding.key.typeName) with its own factory.",
            ]))
      }
    }
  }
}
