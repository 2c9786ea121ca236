extension Container {
  /// The container's bindings and their declared dependencies; for a child, also the
  /// ancestors' bindings its own bindings reach, so a tree from a child binding is whole.
  ///
  /// A dependency taken as a ``Provider`` or ``Lazy`` is an edge to the binding it wraps,
  /// marked ``DependencyGraph/Edge/isDeferred``.
  ///
  /// ```swift
  /// print(container.graph.mermaid)
  /// ```
  public var graph: DependencyGraph {
    var edges: [DependencyGraph.Edge] = []
    // Contributions share their key with each other, so the keyed export leaves them out.
    var reached: [AnyBinding] = all.filter { $0.contributionIndex == nil }
    var seen = Set(reached.map(ObjectIdentifier.init))
    var next = 0
    while next < reached.count {
      let binding = reached[next]
      next += 1
      for declared in binding.dependencies ?? [] {
        var dependency = declared
        var isDeferred = false
        if declaredTarget(of: declared) == nil, TypeName.isJoineryType(declared.key.type),
          let derivable = declared.key.type as? any DerivedFromContainer.Type
        {
          // A Provider or Lazy: an edge to the binding it wraps, used later.
          dependency = DeclaredDependency(
            key: derivable.wrappedKey(of: declared.key), matching: declared.matching)
          isDeferred = true
        }
        guard let (target, fellBack) = declaredTarget(of: dependency, from: binding) else {
          continue
        }
        edges.append(
          DependencyGraph.Edge(
            from: binding.key, to: target.key, isObserved: false, isFallback: fellBack,
            isDeferred: isDeferred, fromPrivateTo: binding.privateTo,
            toPrivateTo: target.privateTo))
        if seen.insert(ObjectIdentifier(target)).inserted { reached.append(target) }
      }
    }
    let requirements = requirements.map { requirement in
      let metBy = requirement.module.flatMap {
        privateBinding(for: requirement.key, allowsFallback: true, in: $0)
      }
      return DependencyGraph.RequirementNode(
        requirement: requirement,
        metBy: (metBy ?? lookup(requirement.key)?.binding)?.info.node)
    }
    return DependencyGraph(
      nodes: reached.map(\.info), edges: edges, requirements: requirements)
  }

  /// The binding a declared dependency of `consumer` resolves to, in this container or an
  /// ancestor (the exact key anywhere first, then, if allowed, the untagged binding; a binding
  /// `consumer`'s assembly keeps private when no other serves it), and whether it is the
  /// fallback.
  func declaredTarget(
    of dependency: DeclaredDependency, from consumer: AnyBinding? = nil
  ) -> (AnyBinding, Bool)? {
    let key = dependency.key
    if let owner = owner(of: key), let exact = owner.table.binding(for: key) {
      return (exact, false)
    }
    if !privateBindings.isEmpty, let module = consumer?.module,
      let kept = privateBinding(
        for: key, allowsFallback: dependency.matching.allowsFallback, in: module)
    {
      return (kept, kept.key != key)
    }
    guard key.tag != nil, dependency.matching.allowsFallback else { return nil }
    let untagged = BindingKey(key.type, boxed: nil, argumentTypes: key.argumentTypes)
    guard let owner = owner(of: untagged), let binding = owner.table.binding(for: untagged)
    else { return nil }
    return (binding, true)
  }
}
