/// A forwarding binding needs a target that makes instances: bound, and not itself a forward.
struct ForwardingTargetValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for position in graph.forwards {
      let binding = graph.bindings[position]
      guard let forward = binding.forwardTargetKey else { continue }
      let target = graph.visible(forward, from: binding).binding ?? graph.binding(for: forward)
      if target == nil || target?.forwardTargetKey != nil {
        let bound = graph.bindingsInChain(ofType: forward.type).map(\.key)
        let problem =
          if target != nil {
            "\(forward) is itself a forward; forward to the binding that makes the instance"
          } else if bound.isEmpty {
            "nothing is bound to \(forward.shortName)"
          } else if bound.allSatisfy({ $0.argumentTypes != nil }) {
            "\(forward.shortName) is bound only with runtime arguments ("
              + bound.map { "`\($0)`" }.joined(separator: ", ")
              + "), which a forward cannot supply"
          } else {
            "\(forward) is not bound; \(forward.shortName) is bound only as "
              + bound.map { "`\($0)`" }.joined(separator: ", ")
          }
        findings.append(
          Diagnostic(
            .invalidForwardingTarget, .error, key: binding.key,
            bindings: [binding.info] + (target.map { [$0.info] } ?? []),
            message: "\(binding.key) forwards to \(forward), but \(problem).",
            fixes: bound.allSatisfy({ $0.argumentTypes != nil }) && target == nil && !bound.isEmpty
              ? [
                "Bind \(binding.key.shortName) with its own factory taking the same arguments, "
                  + "or resolve \(forward.shortName) with its arguments and use it as "
                  + "\(binding.key.shortName).",
                "Or bind \(forward.shortName) without arguments too, and forward to that.",
              ]
              : [
                "Bind \(forward.shortName) with a factory or an instance, and forward to it.",
                "Or bind \(binding.key.shortName) with its own factory.",
              ]))
      }
    }
  }
}
