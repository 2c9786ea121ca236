/// A weak (`transient`) lifetime on a type that can never be a class instance — a struct, enum,
/// tuple or function — would silently behave as something else; it is an error instead.
///
/// Protocol types are checked when their first instance is made.
struct TransientValueTypeValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for binding in graph.bindings where binding.lifetime.strategy.sharesWeakly {
      guard TypeShape(of: binding.key.type) == .value else { continue }
      findings.append(
        Diagnostic(
          .transientValueType, .error, key: binding.key, bindings: [binding.info],
          message: """
            \(binding.key) is transient (weak), but \(binding.key.shortName) is a value type, \
            which cannot be referenced weakly.
            """,
          fixes: [
            "Use .persistent, .cached, .graph or .ephemeral for a value type.",
            "Or make \(binding.key.shortName) a class.",
          ]))
    }
  }
}

/// What a lifetime cannot do, refused at build instead of silently ignored.
///
/// - `dispose:` on an ephemeral, graph or transient binding: the container keeps none of their
///   instances, so it could never dispose them.
/// - A lifetime other than ephemeral on a binding with runtime arguments: each resolve's
///   arguments make their own instance, so none could be kept or shared.
struct LifetimeSupportValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for binding in graph.bindings {
      let lifetime = binding.lifetime
      if binding.key.argumentTypes != nil && lifetime != .ephemeral {
        findings.append(
          Diagnostic(
            .unsupportedLifetime, .error, key: binding.key, bindings: [binding.info],
            message: """
              \(binding.key) takes runtime arguments and declares lifetime: .\(lifetime), but \
              every resolve makes a new instance from the arguments it passes, so none can be \
              kept or shared.
              """,
            fixes: [
              "Drop lifetime: (a binding with runtime arguments is ephemeral).",
              "Or share one instance: bind it without runtime arguments and pass the values "
                + "to a method of the shared instance.",
            ]))
        continue
      }
      if binding.disposer != nil && !lifetime.retainsInstance {
        findings.append(
          Diagnostic(
            .unsupportedLifetime, .error, key: binding.key, bindings: [binding.info],
            message: """
              \(binding.key) declares dispose:, but it is \(lifetime): the container keeps no \
              instance of it, so it could never dispose one.
              """,
            fixes: [
              "Make it .scoped (disposed when its scope closes) or .persistent (disposed at "
                + "shutdown).",
              "Or drop dispose: and end each instance where it is used.",
            ]))
      }
    }
  }
}
