/// A binding that keeps its instance must not keep a shorter-lived dependency inside it, directly
/// or through any chain of bindings made for it.
///
/// What counts as a capture is ``Lifetime/capture(by:)`` (the policy table is there, written
/// once). From each container-wide consumer (persistent, cached, transient) the check walks the
/// declared edges; it reports every dependency the consumer captures — in one finding per
/// consumer, however many there are — and walks on through see-through ones (ephemeral and graph
/// instances are made for the consumer, so it keeps what they depend on) and through forwards to
/// their targets. Optional dependencies count when bound. A `Lazy` counts as the dependency it
/// wraps: it keeps the first instance it makes for as long as its consumer lives. A `Provider`
/// makes a new request each time, checked at resolve time instead.
/// ``Registrar/allowCaptive(_:tag:dependency:dependencyTag:because:)`` acknowledges an intended
/// capture of that consumer and dependency, which then is not reported.
///
/// An ephemeral or graph dependency is no captive, but when several long-lived consumers each
/// keep one directly, each has an instance of its own: often one was meant (ten "singletons"
/// each with their own manager). That is one warning, on the dependency, naming its keepers —
/// for a binding whose lifetime is its register's default and whose type may be a class; a
/// lifetime written at the binding, or a value type, is a choice nobody needs told about.
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
    // The current consumer's captures, reported together once its walk ends.
    var captures: [Capture] = []
    // For an ephemeral or graph binding of a default lifetime, the long-lived consumers that
    // depend on it directly, each keeping an instance of its own.
    var keepers: [Int: [AnyBinding]] = [:]
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
          guard let target = graph.keptTarget(ofEdge: edge), visited[target] != index else {
            continue
          }
          visited[target] = index
          let dependency = graph.lifetimeOwner(of: target)
          if let severity = dependency.lifetime.capture(by: consumer.lifetime) {
            metCapture = true
            let requested = graph.dependency(ofEdge: edge).key
            let acknowledged = CaptiveKey(consumer: consumer.key, dependency: requested)
            if graph.allowedCaptives[acknowledged] == nil {
              captures.append(
                Capture(
                  severity: severity,
                  chain: chain(to: position, from: index, reachedFrom).map {
                    graph.lifetimeOwner(of: $0)
                  }, dependency: dependency, requested: requested,
                  isLazy: graph.isLazy(edge: edge)))
            }
          }
          if position == index, !graph.isLazy(edge: edge), dependency.lifetime.isSeeThrough,
            dependency.inheritsLifetime,
            TypeShape(of: dependency.key.type) != .value,
            graph.allowedCaptives[
              CaptiveKey(consumer: consumer.key, dependency: graph.dependency(ofEdge: edge).key)]
              == nil
          {
            keepers[dependency.position, default: []].append(consumer)
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
      for severity in [Diagnostic.Level.error, .warning] {
        let found = captures.filter { $0.severity == severity }
        if !found.isEmpty { findings.append(finding(severity, consumer: consumer, found)) }
      }
      captures.removeAll(keepingCapacity: true)
    }
    for (position, consumers) in keepers.sorted(by: { $0.key < $1.key }) where consumers.count > 1 {
      findings.append(separateInstances(of: graph.bindings[position], keptBy: consumers))
    }
  }

  /// One shorter-lived dependency a consumer keeps.
  private struct Capture {
    let severity: Diagnostic.Level
    /// The see-through bindings between the consumer and the dependency, made for it.
    let chain: [AnyBinding]
    let dependency: AnyBinding
    /// The key the consumer's edge asked for (a forward's, before it is followed).
    let requested: BindingKey
    /// Whether the consumer keeps it through a `Lazy`.
    let isLazy: Bool
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

  /// One finding for every capture of one severity by `consumer`.
  private func finding(
    _ severity: Diagnostic.Level, consumer: AnyBinding, _ captures: [Capture]
  ) -> Diagnostic {
    let consumerLifetime = consumer.lifetime
    let sentences = captures.map { capture in
      let lifetime = capture.dependency.lifetime
      let links = ([consumer] + capture.chain + [capture.dependency]).map {
        "\($0.key) (\($0.lifetime), \($0.location))"
      }
      let via =
        capture.chain.isEmpty
        ? ""
        : " through \(capture.chain.map { "\($0.key)" }.joined(separator: " → ")), made for it"
      let reason =
        lifetime.reach == .scope
        ? "one scope's \(capture.requested.shortName) would serve every scope"
        : "the \(consumerLifetime) instance would keep one \(capture.requested.shortName) "
          + "beyond its lifetime"
      let chain = capture.chain.isEmpty ? "" : " Chain: \(links.joined(separator: " → "))."
      let lazy =
        capture.isLazy
        ? " (through a Lazy, which keeps the first instance it makes: a later request would "
          + "get that one)" : ""
      return "depends on \(capture.requested)\(via)\(lazy), which is \(lifetime): \(reason)."
        + chain
    }
    let message =
      sentences.count == 1
      ? "\(consumer.key) is \(consumerLifetime) but \(sentences[0])"
      : "\(consumer.key) is \(consumerLifetime) and keeps \(sentences.count) shorter-lived "
        + "dependencies; it\n" + sentences.map { "- \($0)" }.joined(separator: "\n")
    let first = captures[0].requested.shortName
    return Diagnostic(
      .captiveDependency, severity, key: consumer.key,
      bindings: [consumer.info] + captures.flatMap { $0.chain.map(\.info) + [$0.dependency.info] },
      message: message,
      fixes: [
        "Make \(consumer.key.shortName) as short-lived as its "
          + (captures.count == 1 ? "dependency, or the dependency" : "dependencies, or each")
          + " as long-lived as it.",
        "Or depend on Provider<\(first)> and call get() when it is used: "
          + "a Provider resolves in the scope it is used in.",
        "Or, if it is intended, declare it: registrar.allowCaptive("
          + "\(consumer.key.shortName).self, dependency: \(first).self, because: \"…\").",
      ])
  }

  /// The warning that `dependency`, made anew for each, is kept by several long-lived
  /// `consumers`.
  private func separateInstances(of dependency: AnyBinding, keptBy consumers: [AnyBinding])
    -> Diagnostic
  {
    let name = dependency.key.shortName
    let keepers = consumers.map { "- \($0.key) (\($0.lifetime), bound at \($0.location))" }
    return Diagnostic(
      .captiveDependency, .warning, key: dependency.key,
      bindings: [dependency.info] + consumers.map(\.info),
      message: """
        \(dependency.key) is \(dependency.lifetime) (its register's default, bound at \
        \(dependency.location)) and \(consumers.count) long-lived bindings keep it, each an \
        instance of its own:
        \(keepers.joined(separator: "\n"))
        """,
      fixes: [
        "If one \(name) is meant, bind it persistent: lifetime: .persistent.",
        "If each should have its own, write its lifetime at the binding: lifetime: "
          + ".\(dependency.lifetime) (a lifetime written there is not reported).",
      ])
  }
}
