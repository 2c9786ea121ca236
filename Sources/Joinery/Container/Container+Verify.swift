extension Container {
  /// Creates every binding that needs no runtime arguments in a throwaway copy of this
  /// container, and reports every failure at once.
  ///
  /// The copy has the same bindings and none of this container's instances, so verifying
  /// never creates, replaces or shares an instance of the real container (factories do run, so
  /// their side effects happen). It also records which bindings each factory resolved, so
  /// unchecked closure factories show their real edges in ``VerificationReport/graph``.
  ///
  /// ```swift
  /// @Test func productionGraphResolves() throws {
  ///   let container = try ContainerBuilder(AppAssembly()).build()
  ///   let report = try container.verify()
  ///   #expect(report.skipped.isEmpty)
  /// }
  /// ```
  ///
  /// Bindings that take runtime arguments cannot be created without them, and async bindings
  /// need `await`; both are listed in ``VerificationReport/skipped``.
  ///
  /// - Returns: What was verified, what was skipped, and the graph with observed edges.
  /// - Throws: ``VerificationError`` with every failure, when any binding fails.
  public func verify() throws(VerificationError) -> VerificationReport {
    let recorder = EdgeRecorder()
    let copy = throwawayCopy(recorder: recorder)
    let copies = copy.all
    var verified: [BindingKey] = []
    var skipped: [BindingInfo] = []
    var failures: [ResolutionError] = []
    let ordered = copies.map { ($0.key.sortKey, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    for binding in ordered {
      if binding.needsArguments || binding.isAsync {
        skipped.append(binding.info)
        continue
      }
      withTemporaryInstance(binding.layout) { slot in
        do throws(ResolutionError) {
          try binding.resolve(into: slot, in: copy, parent: .topLevel, fallbackTag: nil)
          slot.destroy(binding.layout)
          verified.append(binding.key)
        } catch {
          failures.append(error)
        }
      }
    }
    let observed = recorder.edges.map {
      DependencyGraph.Edge(from: $0.from, to: $0.to, kind: .observed, isFallback: false)
    }
    let declared = Set(graph.edges.map { [$0.from, $0.to] })
    let report = VerificationReport(
      verified: verified, skipped: skipped,
      graph: graph.adding(observed.filter { !declared.contains([$0.from, $0.to]) }))
    if !failures.isEmpty { throw VerificationError(failures: failures, report: report) }
    return report
  }
}

extension Container {
  /// The same bindings with no instances, down the whole chain of ancestors, so verifying a
  /// child touches no instance of its parent either.
  func throwawayCopy(recorder: EdgeRecorder) -> Container {
    let copies = all.map { $0.fresh() }
    return Container(
      bindings: copies.filter { $0.contributionIndex == nil },
      contributions: copies.filter { $0.contributionIndex != nil }, maximumDepth: maximumDepth,
      warnings: warnings, recorder: recorder, injectors: Array(injectors.values),
      parent: parentContainer?.throwawayCopy(recorder: recorder))
  }
}
