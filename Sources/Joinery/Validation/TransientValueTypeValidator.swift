/// A weak (`transient`) lifetime on a type that can never be a class instance — a struct, enum,
/// tuple or function — would silently behave as something else; it is an error instead.
/// Protocol types are checked when their first instance is made.
struct TransientValueTypeValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for binding in graph.bindings where binding.lifetime.kind == .transient {
      guard TypeShape(of: binding.key.type) == .value else { continue }
      findings.append(
        Diagnostic(
          .transientValueType, .error, key: binding.key, bindings: [binding.info],
          message: """
            \(binding.key) is transient (weak), but \(binding.key.typeName) is a value type, \
            which cannot be referenced weakly.
            """,
          fixes: [
            "Use .persistent, .cached, .graph or .ephemeral for a value type.",
            "Or make \(binding.key.typeName) a class.",
          ]))
    }
  }
}
