/// A binding can use a dependency only where that dependency can be made: a synchronous factory
/// cannot await an `async` one, and a factory that may run on any thread cannot run a main-actor
/// one.
///
/// Both are build errors, so the order in which things were first resolved never decides
/// whether a resolve works.
///
/// | consumer | dependency | finding |
/// |---|---|---|
/// | synchronous (`bind`, `bindMainActor`) | async (`bindAsync`) | error `asyncDependency` |
/// | nonisolated, synchronous (`bind`) | main actor (`bindMainActor`) | error `mainActorDependency` |
/// | async (`bindAsync`) | main actor (`bindMainActor`) | fine: awaited on the main actor |
///
/// A `Provider` dependency is resolved later, where its user decides (`get()`, or `getAsync()`
/// for an async binding), and is not checked. A `Lazy` of an async binding is an error
/// `asyncDependency` in any consumer: it reads synchronously, so it could never make it. A
/// forward takes the isolation of the binding it forwards to. An eager persistent
/// async dependency is fine for a lazy consumer when the container is built with
/// `buildAsync()`, which creates it before any resolve.
struct IsolationValidator: BuildValidator {
  /// Whether the container is built by `buildAsync()`.
  var awaitsEagerAsync = false

  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    // Without async or main-actor bindings, no dependency can be either.
    guard graph.hasIsolatedBindings else { return }
    for index in graph.bindings.indices where graph.hasEdges(index) {
      let consumer = graph.bindings[index]
      if graph.isForward(index) { continue }
      for edge in graph.edges(of: index) {
        guard let target = edge.target else { continue }
        if let deferral = edge.deferral {
          if deferral == .synchronousOnly, graph.lifetimeOwner(of: target).isAsync {
            findings.append(lazyFinding(consumer, graph.lifetimeOwner(of: target), edge))
          }
          continue
        }
        if consumer.isAsync { continue }
        let dependency = graph.lifetimeOwner(of: target)
        if dependency.isAsync {
          let createdFirst =
            awaitsEagerAsync && dependency.lifetime.isEager && !consumer.lifetime.isEager
          if !createdFirst { findings.append(asyncFinding(consumer, dependency, edge)) }
        } else if dependency.isMainActor && !consumer.isMainActor {
          findings.append(mainActorFinding(consumer, dependency, edge))
        }
      }
    }
  }

  private func asyncFinding(
    _ consumer: AnyBinding, _ dependency: AnyBinding, _ edge: DeclaredGraph.Edge
  ) -> Diagnostic {
    let name = consumer.key.shortName
    return Diagnostic(
      .asyncDependency, .error, key: consumer.key, bindings: [consumer.info, dependency.info],
      message: """
        \(consumer.key) has a synchronous factory but depends on \(edge.dependency.key), whose \
        factory is async: a synchronous resolve of \(name) could never await it.
        """,
      fixes: [
        "Bind \(name) with bindAsync(\(name).self, to: \(name).init) (or an async closure) so "
          + "that its dependencies are awaited, and resolve it with resolveAsync.",
        "Or make \(edge.dependency.key.shortName)'s factory synchronous.",
        "Or, for a shared resource such as a pool, make it .persistent(eager: true) and build "
          + "with buildAsync(), which creates it before any resolve.",
      ])
  }

  private func lazyFinding(
    _ consumer: AnyBinding, _ dependency: AnyBinding, _ edge: DeclaredGraph.Edge
  ) -> Diagnostic {
    let name = edge.dependency.key.shortName
    return Diagnostic(
      .asyncDependency, .error, key: consumer.key, bindings: [consumer.info, dependency.info],
      message: """
        \(consumer.key) takes a Lazy<\(name)>, but \(edge.dependency.key)'s factory is async: \
        a Lazy reads synchronously and could never make it.
        """,
      fixes: [
        "Take a Provider<\(name)> instead and await it where it is needed: "
          + "try await provider.getAsync().",
        "Or take \(name) itself, awaited when \(consumer.key.shortName) is made (bindAsync).",
        "Or make \(name)'s factory synchronous.",
      ])
  }

  private func mainActorFinding(
    _ consumer: AnyBinding, _ dependency: AnyBinding, _ edge: DeclaredGraph.Edge
  ) -> Diagnostic {
    let name = consumer.key.shortName
    return Diagnostic(
      .mainActorDependency, .error, key: consumer.key, bindings: [consumer.info, dependency.info],
      message: """
        \(consumer.key) may be made on any thread but depends on \(edge.dependency.key), which \
        is bound to the main actor: resolving \(name) off the main actor would fail.
        """,
      fixes: [
        "Bind \(name) with bindMainActor too, if it belongs to the UI.",
        "Or take a Provider<\(edge.dependency.key.shortName)> and get it on the main actor.",
        "Or bind \(edge.dependency.key.shortName) with bind(_:…) if it needs no main actor.",
      ])
  }
}
