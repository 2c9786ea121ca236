/// With ``ContainerBuilder/requiresCheckedBindings``, every binding must tell `build()` what it
/// depends on: a closure factory without `dependsOn:` is an error, since nothing it resolves
/// could be checked before it runs.
struct UncheckedBindingValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for binding in graph.bindings where binding.dependencies == nil {
      let name = binding.key.shortName
      findings.append(
        Diagnostic(
          .uncheckedBinding, .error, key: binding.key, bindings: [binding.info],
          message: """
            \(binding.key) is made by a closure that declares no dependencies, so build() cannot \
            check what it resolves, and checked bindings are required.
            """,
          fixes: [
            "Bind an initializer instead: bind(\(name).self, to: \(name).init).",
            "Or give the closure typed parameters instead of a resolver, each resolved and "
              + "checked: bind(\(name).self) { (client: Client) in \(name)(client) }.",
            "Or declare what the closure resolves: dependsOn: [BindingKey(Dependency.self)] "
              + "(an empty array if it resolves nothing).",
          ]))
    }
  }
}
