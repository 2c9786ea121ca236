/// One rule checked by `build()`. Each validator looks at the whole declared graph and appends a
/// finding per violation; `build()` runs them all and reports every finding at once.
protocol BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic])
}

/// What validators see: the bindings that won (after overrides), the lookup over them, and the
/// declared edges resolved once, in time linear in bindings plus edges.
struct DeclaredGraph {
  let bindings: [AnyBinding]
  let byKey: [BindingKey: AnyBinding]
  let byType: [ObjectIdentifier: [AnyBinding]]
  /// For each binding (by position), its declared dependencies and where each resolves.
  let edges: [[Edge]]
  let allowedCaptives: [CaptiveKey: String]
  let requiresExactTags: Bool

  struct Edge {
    let dependency: DeclaredDependency
    /// The position of the binding that serves it, or `nil` when nothing does.
    let target: Int?
    /// Whether a tagged dependency is served by the untagged binding.
    let fellBack: Bool
  }

  init(_ bindings: [AnyBinding], allowedCaptives: [CaptiveKey: String], requiresExactTags: Bool) {
    self.bindings = bindings
    self.allowedCaptives = allowedCaptives
    self.requiresExactTags = requiresExactTags
    var byKey: [BindingKey: AnyBinding] = [:]
    var byType: [ObjectIdentifier: [AnyBinding]] = [:]
    var position: [ObjectIdentifier: Int] = [:]
    byKey.reserveCapacity(bindings.count)
    position.reserveCapacity(bindings.count)
    for (index, binding) in bindings.enumerated() {
      byKey[binding.key] = binding
      byType[ObjectIdentifier(binding.key.type), default: []].append(binding)
      position[ObjectIdentifier(binding)] = index
    }
    self.byKey = byKey
    self.byType = byType
    edges = bindings.map { binding in
      (binding.dependencies ?? []).map { dependency in
        var served = byKey[dependency.key]
        var fellBack = false
        if served == nil, dependency.key.tag != nil, dependency.matching.allowsFallback {
          served =
            byKey[BindingKey(dependency.key.type, argumentTypes: dependency.key.argumentTypes)]
          fellBack = served != nil
        }
        return Edge(
          dependency: dependency, target: served.map { position[ObjectIdentifier($0)]! },
          fellBack: fellBack)
      }
    }
  }

  /// The binding a forward ends at, or the binding itself.
  func lifetimeOwner(of index: Int) -> AnyBinding {
    let binding = bindings[index]
    guard binding.forwardTargetKey != nil, let target = edges[index].first?.target else {
      return binding
    }
    return bindings[target]
  }
}
