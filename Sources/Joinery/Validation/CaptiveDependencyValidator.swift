/// A binding that keeps its instance must not keep a shorter-lived dependency inside it, directly
/// or through any chain of bindings made for it.
///
/// What counts as a capture is ``Lifetime/capture(by:)`` (the policy table is there, written
/// once). From each container-wide consumer (persistent, cached, transient) the check walks the
/// declared edges; it reports every dependency the consumer captures, and walks on through
/// see-through ones (ephemeral and graph instances are made for the consumer, so it keeps what
/// they depend on) and through forwards to their targets. Optional dependencies count when bound;
/// `Provider` and `Lazy` edges are deferred, checked at resolve time instead.
/// ``Registrar/allowCaptive(_:tag:dependency:dependencyTag:because:)`` acknowledges an intended
/// capture of that consumer and dependency, which then is not reported.
///
/// Each consumer's walk visits a binding once. A walk that meets no capture at all marks every
/// see-through binding it went through as *clean* for its consumer's lifetime (nothing below it
/// is captured by a consumer of that lifetime), and later walks of consumers of that lifetime
/// stop there: many singletons over one chain of ephemeral bindings cost the chain once, not
/// once per singleton. A walk that meets a capture marks nothing, so findings are the same as
/// without the marks.
struct CaptiveDependencyValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    let count = graph.bindings.count
    // The consumer whose walk last reached each binding.
    var visited = [Int](repeating: -1, count: count)
    // For a see-through binding on the current consumer's walk, the binding whose edge led to
    // it: the chain of a finding is rebuilt from these, only when there is one.
    var reachedFrom = [Int](repeating: -1, count: count)
    var stack: [Int] = []
    // Per consumer lifetime, the see-through bindings known to be clean for it.
    var clean = CleanMarks()
    // The see-through bindings the current walk went through, marked clean if it met no capture.
    var walked: [Int] = []
    for index in 0..<count {
      guard graph.hasEdges(index), !graph.isForward(index) else { continue }
      let consumer = graph.bindings[index]
      guard consumer.lifetime.reach == .container else { continue }
      visited[index] = index
      var metCapture = false
      // The slot of the consumer's lifetime in `clean`, found when a see-through binding is met.
      var marks: Int?
      // Depth-first through the see-through bindings made for the consumer.
      stack.append(index)
      while let position = stack.popLast() {
        for edge in graph.edgeIndices(of: position) {
          guard let target = graph.immediateTarget(ofEdge: edge), visited[target] != index else {
            continue
          }
          visited[target] = index
          let dependency = graph.lifetimeOwner(of: target)
          if let severity = dependency.lifetime.capture(by: consumer.lifetime) {
            metCapture = true
            let requested = graph.dependency(ofEdge: edge).key
            let acknowledged = CaptiveKey(consumer: consumer.key, dependency: requested)
            if graph.allowedCaptives[acknowledged] == nil {
              findings.append(
                finding(
                  severity, consumer: consumer,
                  through: chain(to: position, from: index, reachedFrom).map {
                    graph.lifetimeOwner(of: $0)
                  }, dependency: dependency, requested: requested))
            }
          }
          if dependency.lifetime.isSeeThrough {
            let next = dependency.position
            // A forward's target may have been reached already: its edges are walked once.
            if next != target, visited[next] == index { continue }
            visited[next] = index
            let slot = marks ?? clean.slot(for: consumer.lifetime, count: count)
            marks = slot
            if clean.isClean(next, in: slot) { continue }
            reachedFrom[next] = position
            stack.append(next)
            walked.append(next)
          }
        }
      }
      if let marks, !metCapture { clean.mark(walked, in: marks) }
      walked.removeAll(keepingCapacity: true)
    }
  }

  /// For each consumer lifetime met, which see-through bindings lead to nothing a consumer of
  /// that lifetime captures (``Lifetime/capture(by:)`` depends on the consumer's lifetime only).
  private struct CleanMarks {
    private var lifetimes: [Lifetime] = []
    private var marks: [[Bool]] = []

    /// The slot of `lifetime`'s marks among `count` bindings, made (none clean) on first use.
    mutating func slot(for lifetime: Lifetime, count: Int) -> Int {
      if let slot = lifetimes.firstIndex(of: lifetime) { return slot }
      lifetimes.append(lifetime)
      marks.append([Bool](repeating: false, count: count))
      return lifetimes.count - 1
    }

    func isClean(_ position: Int, in slot: Int) -> Bool { marks[slot][position] }

    mutating func mark(_ positions: [Int], in slot: Int) {
      for position in positions { marks[slot][position] = true }
    }
  }

  /// The see-through bindings from `consumer` (excluded) to `position` (included).
  private func chain(to position: Int, from consumer: Int, _ reachedFrom: [Int]) -> [Int] {
    var chain: [Int] = []
    var current = position
    while current != consumer {
      chain.append(current)
      current = reachedFrom[current]
    }
    return chain.reversed()
  }

  private func finding(
    _ severity: Diagnostic.Level, consumer: AnyBinding, through chain: [AnyBinding],
    dependency: AnyBinding, requested: BindingKey
  ) -> Diagnostic {
    let consumerLifetime = consumer.lifetime
    let lifetime = dependency.lifetime
    let links = ([consumer] + chain + [dependency]).map {
      "\($0.key) (\($0.lifetime), \($0.location))"
    }
    let via =
      chain.isEmpty
      ? ""
      : " through \(chain.map { "\($0.key)" }.joined(separator: " → ")), made for it"
    let reason =
      lifetime.reach == .scope
      ? "one scope's \(requested.shortName) would serve every scope"
      : "the \(consumerLifetime) instance would keep one \(requested.shortName) beyond its lifetime"
    return Diagnostic(
      .captiveDependency, severity, key: consumer.key,
      bindings: [consumer.info] + chain.map(\.info) + [dependency.info],
      message: """
        \(consumer.key) is \(consumerLifetime) but depends on \(requested)\(via), which is \
        \(lifetime): \(reason).\(chain.isEmpty ? "" : " Chain: \(links.joined(separator: " → ")).")
        """,
      fixes: [
        "Make \(consumer.key.shortName) as short-lived as its dependency, or the "
          + "dependency as long-lived as it.",
        "Or depend on Provider<\(requested.shortName)> and call get() when it is used: "
          + "a Provider resolves in the scope it is used in.",
        "Or, if it is intended, declare it: registrar.allowCaptive("
          + "\(consumer.key.shortName).self, dependency: "
          + "\(requested.shortName).self, because: \"…\").",
      ])
  }
}
