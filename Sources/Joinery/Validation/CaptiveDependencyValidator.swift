/// A binding that keeps its instance must not keep a shorter-lived dependency inside it.
///
/// The policy:
///
/// | consumer | dependency | finding |
/// |---|---|---|
/// | persistent | cached, transient, graph | error: the dependency outlives its reset, release or resolution inside the consumer |
/// | cached | transient, graph, or cached in another group | warning |
/// | persistent, cached, transient | scoped | error: one scope's instance would serve every scope |
///
/// Ephemeral dependencies are fine everywhere: the consumer simply owns its own instance.
/// ``Registrar/allowCaptive(_:tag:dependency:dependencyTag:because:)`` acknowledges an intended
/// one, which then is not reported.
struct CaptiveDependencyValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for index in graph.bindings.indices {
      let edges = graph.edges(of: index)
      if edges.isEmpty { continue }
      let consumer = graph.bindings[index]
      if consumer.forwardTargetKey != nil { continue }
      let consumerLifetime = consumer.lifetime
      guard
        consumerLifetime.kind == .persistent || consumerLifetime.kind == .cached
          || consumerLifetime.kind == .transient
      else { continue }
      for edge in edges {
        guard let target = edge.target, !edge.isDeferred else { continue }
        let dependency = graph.lifetimeOwner(of: target)
        let lifetime = dependency.lifetime
        let severity: Diagnostic.Severity
        switch (consumerLifetime.kind, lifetime.kind) {
        case (.persistent, .cached), (.persistent, .transient), (.persistent, .graph):
          severity = .error
        case (.persistent, .scoped), (.cached, .scoped), (.transient, .scoped):
          severity = .error
        case (.cached, .transient), (.cached, .graph):
          severity = .warning
        case (.cached, .cached) where consumerLifetime.group != lifetime.group:
          severity = .warning
        default:
          continue
        }
        let acknowledged = CaptiveKey(consumer: consumer.key, dependency: edge.dependency.key)
        if graph.allowedCaptives[acknowledged] != nil { continue }
        findings.append(
          Diagnostic(
            .captiveDependency, severity, key: consumer.key,
            bindings: [consumer.info, dependency.info],
            message: """
              \(consumer.key) is \(consumerLifetime) but depends on \(edge.dependency.key), \
              which is \(lifetime): the \(consumerLifetime) instance would keep one \
              \(edge.dependency.key.typeName) beyond its lifetime.
              """,
            fixes: [
              "Make \(consumer.key.typeName) as short-lived as its dependency, or the "
                + "dependency as long-lived as it.",
              "Or resolve the dependency when it is used instead of keeping it.",
              "Or, if it is intended, declare it: registrar.allowCaptive("
                + "\(consumer.key.typeName).self, dependency: "
                + "\(edge.dependency.key.typeName).self, because: \"…\").",
            ]))
      }
    }
  }
}
