/// One rule checked by `build()`. Each validator looks at the whole declared graph and appends a
/// finding per violation; `build()` runs them all and reports every finding at once.
protocol BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic])
}

/// What validators see: the bindings that won (after overrides) and the lookup over them.
struct DeclaredGraph {
  let bindings: [AnyBinding]
  let byKey: [BindingKey: AnyBinding]

  init(_ bindings: [AnyBinding]) {
    self.bindings = bindings
    var byKey: [BindingKey: AnyBinding] = [:]
    for binding in bindings { byKey[binding.key] = binding }
    self.byKey = byKey
  }
}
