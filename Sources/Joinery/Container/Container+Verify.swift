internal import JoineryEngine

extension Container {
  /// Creates every binding in a throwaway copy of this container, and reports every failure at
  /// once.
  ///
  /// The copy has the same bindings and none of this container's instances, so verifying
  /// never creates, replaces or shares an instance of the real container (factories do run, so
  /// their side effects happen). It also records which bindings each factory resolved, so
  /// unchecked closure factories show their real edges in ``VerificationReport/graph``.
  ///
  /// What the copy made is disposed afterwards, newest first, as ``shutdown()`` would: the
  /// scoped instances, then the persistent and cached ones. `verify` disposes in a task of its
  /// own, which this container's ``shutdown()`` waits for (``verifyAsync(arguments:)`` before it
  /// returns); a disposer that throws is written to standard error. An instance handed over
  /// with `bind(_:instance:)` is the same object in the copy: only this container disposes it.
  ///
  /// ```swift
  /// @Test func productionGraphResolves() throws {
  ///   let container = try ContainerBuilder(AppAssembly()).build()
  ///   let report = try container.verify()
  ///   #expect(report.skipped.isEmpty)
  /// }
  /// ```
  ///
  /// Bindings that take runtime arguments are created with the sample arguments given for them
  /// (Dip's `validate(args)`), and scoped bindings in a throwaway scope made with the samples'
  /// scope values:
  ///
  /// ```swift
  /// var samples = SampleArguments()
  /// samples.add(Download.self, arguments: URL(string: "https://example.com")!, 3)
  /// samples.addScopeValue(Request(id: 0))
  /// let report = try container.verify(arguments: samples)
  /// ```
  ///
  /// While factories run, the copy is ``Container/current``: an ``Injected`` property read in
  /// an initializer resolves from it, as it would from this container in the app.
  ///
  /// An argument binding without samples, a scoped one that needs a value the samples do not
  /// provide, an async binding (use ``verifyAsync(arguments:)``) and a main-actor binding off the
  /// main thread are skipped, each listed in ``VerificationReport/skipped``.
  ///
  /// - Parameters:
  ///   - samples: Arguments and scope values to create bindings with; none when omitted.
  ///   - isolation: The caller's actor, passed implicitly (`#isolation`): main-actor bindings
  ///     are created when it is the main actor (or the caller is on the main thread), as
  ///     `build()` creates eager ones.
  /// - Returns: What was verified, what was skipped, and the graph with observed edges.
  /// - Throws: ``VerificationError`` with every failure, when any binding fails.
  public func verify(
    arguments samples: SampleArguments = SampleArguments(),
    isolation: isolated (any Actor)? = #isolation
  ) throws(VerificationError)
    -> VerificationReport
  {
    let run = VerificationRun(of: self, samples: samples, isolation: isolation)
    let onMainActor =
      _ThreadState.isOnMainActor
      || isolation.map { ObjectIdentifier($0) == ObjectIdentifier(MainActor.shared) } == true
    // The copy is current while factories run: an `@Injected` property read in one resolves
    // from it, as it would from this container in the app.
    run.copy.withCurrent {
      for binding in run.ordered {
        if binding.needsArguments, !binding.isAsync, let sample = samples.sample(for: binding.key) {
          run.record(binding, sample.create(run.scope))
        } else if binding.needsArguments || binding.isAsync || binding.isScopeValue
          || (binding.isMainActor && !onMainActor)
        {
          run.skip(binding)
        } else {
          run.createSynchronously(binding)
        }
      }
    }
    disposals.disposeDetached(run.takeDisposals(), context: "disposing what verify() made")
    return try run.report(graph)
  }

  /// ``verify(arguments:isolation:)`` for a graph with async and main-actor bindings: awaits every async
  /// binding, and creates main-actor bindings on the main actor.
  ///
  /// It returns once what the throwaway copy made is disposed, newest first.
  ///
  /// Only argument bindings without samples, and scoped bindings that need a scope value the
  /// samples do not provide (``SampleArguments/addScopeValue(_:as:tag:)``), are skipped.
  ///
  /// ```swift
  /// @Test func productionGraphStarts() async throws {
  ///   let container = try ContainerBuilder(AppAssembly()).build()
  ///   let report = try await container.verifyAsync()
  ///   #expect(report.skipped.isEmpty)
  /// }
  /// ```
  ///
  /// - Parameter samples: Runtime arguments and scope values to create bindings with; none
  ///   when omitted.
  /// - Returns: What was verified, what was skipped, and the graph with observed edges.
  /// - Throws: ``VerificationError`` with every failure, when any binding fails.
  public func verifyAsync(
    arguments samples: SampleArguments = SampleArguments()
  ) async throws(VerificationError) -> VerificationReport {
    let run = VerificationRun(of: self, samples: samples, isolation: nil)
    // Eager async singletons first, as `buildAsync()` makes them before anything resolves:
    // synchronous bindings may depend on them then.
    let isEagerAsync = { (binding: AnyBinding) in
      binding.isAsync && binding.lifetime.isEager
    }
    // The copy is current while factories run, as in ``verify(arguments:isolation:)``.
    await run.copy.withCurrent(isolation: nil) {
      for binding in run.ordered.filter(isEagerAsync) + run.ordered.filter({ !isEagerAsync($0) }) {
        if binding.needsArguments, let sample = samples.sample(for: binding.key) {
          run.record(
            binding,
            binding.isAsync ? await sample.createAsync(run.scope) : sample.create(run.scope))
        } else if binding.needsArguments || binding.isScopeValue {
          run.skip(binding)
        } else if let async = binding.asyncFactory {
          await run.createAsynchronously(async)
        } else if binding.isMainActor {
          let copy = run.copy
          run.record(
            binding, await MainActor.run { VerificationRun.failure(creating: binding, in: copy) })
        } else {
          run.createSynchronously(binding)
        }
      }
    }
    do throws(DisposalError) {
      try await DisposalList.dispose(run.takeDisposals())
    } catch {
      _writeErrorLine("Joinery: disposing what verifyAsync() made threw: \(error)")
    }
    return try run.report(graph)
  }
}

/// One verification: the throwaway copy, and what was verified, skipped and failed so far.
private final class VerificationRun {
  let copy: Container
  /// Where scoped bindings are made: one scope for the whole run.
  let scope: Scope
  let ordered: [AnyBinding]
  private let recorder: EdgeRecorder
  private var verified: [BindingKey] = []
  private var skipped: [BindingInfo] = []
  private var failures: [ResolutionError] = []

  /// The isolation of the caller of `verify()`, which synchronous creations run with.
  let isolation: (any Actor)?

  init(of container: Container, samples: SampleArguments, isolation: (any Actor)?) {
    self.isolation = isolation
    recorder = EdgeRecorder()
    copy = container.throwawayCopy(recorder: recorder)
    // A value no binding declares is left out; its sample cannot matter.
    let copy = copy
    scope =
      (try? copy.makeScope { values in
        values.values = samples.scopeValues.values.filter {
          copy.lookup($0.key)?.binding.isScopeValue == true
        }
      }) ?? copy.makeScope()
    ordered = copy.all.map { ($0.key.sortKey, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  func skip(_ binding: AnyBinding) { skipped.append(binding.info) }

  func createSynchronously(_ binding: AnyBinding) {
    _withTemporaryInstance(binding.layout) { slot in
      do throws(ResolutionError) {
        try binding.resolve(
          into: slot, in: copy, parent: .topLevel(in: scope, isolation), fallbackTag: nil)
        slot.destroy(binding.layout)
        verified.append(binding.key)
      } catch  where error.code == .scopeValueMissing {
        // Needs a value only a real scope provides.
        skipped.append(binding.info)
      } catch {
        failures.append(error)
      }
    }
  }

  /// Records the outcome of creating `binding`: `nil` for success.
  func record(_ binding: AnyBinding, _ failure: ResolutionError?) {
    if let failure { failures.append(failure) } else { verified.append(binding.key) }
  }

  /// Creates a main-actor binding in a resolution that starts on the main actor; returns the
  /// failure, if any.
  @MainActor
  static func failure(creating binding: AnyBinding, in copy: Container) -> ResolutionError? {
    _withTemporaryInstance(binding.layout) { slot in
      do throws(ResolutionError) {
        try ResolutionContext.onMainActor(in: copy) {
          parent throws(ResolutionError) in
          try binding.resolve(into: slot, in: copy, parent: parent, fallbackTag: nil)
        }
        slot.destroy(binding.layout)
        return nil
      } catch {
        return error
      }
    }
  }

  func createAsynchronously(_ binding: AnyBinding) async {
    do throws(ResolutionError) {
      _ = try await copy.awaitInstance(of: binding, path: nil, scope: scope)
      verified.append(binding.key)
    } catch  where error.code == .scopeValueMissing {
      skipped.append(binding.info)
    } catch {
      failures.append(error)
    }
  }

  /// Ends the run's scope and copies, and returns the disposals of what they made, oldest
  /// first: the ancestors' copies, the copy, then the scope, so that disposing them newest first
  /// disposes the scope's instances before those they were made from.
  func takeDisposals() -> [DisposalList.Entry] {
    var entries = scope.disposals.close() ?? []
    var container: Container? = copy
    while let next = container {
      entries = (next.disposals.close() ?? []) + entries
      container = next.parentContainer
    }
    return entries
  }

  func report(_ declaredGraph: DependencyGraph) throws(VerificationError) -> VerificationReport {
    let observed = recorder.edges.map {
      DependencyGraph.Edge(
        from: $0.from, to: $0.to, isObserved: true, isFallback: false, isDeferred: false,
        fromPrivateTo: $0.fromPrivateTo, toPrivateTo: $0.toPrivateTo)
    }
    let declared = Set(declaredGraph.edges.map { [$0.fromNode, $0.toNode] })
    let report = VerificationReport(
      verified: verified, skipped: skipped,
      graph: declaredGraph.adding(
        observed.filter { !declared.contains([$0.fromNode, $0.toNode]) }))
    if !failures.isEmpty { throw VerificationError(failures: failures, report: report) }
    return report
  }
}

extension Container {
  /// The same bindings with no instances, down the whole chain of ancestors, so verifying a
  /// child touches no instance of its parent either.
  func throwawayCopy(recorder: EdgeRecorder) -> Container {
    let copies = all.map { $0.fresh() }
    // A handed-over instance is the real container's object: the copy must not dispose it.
    for copy in copies where copy.isHandedOver { copy.disposer = nil }
    return Container(
      bindings: copies.filter { $0.contributionIndex == nil },
      contributions: copies.filter { $0.contributionIndex != nil }, maximumDepth: maximumDepth,
      warnings: warnings, recorder: recorder,
      parent: parentContainer?.throwawayCopy(recorder: recorder))
  }
}

/// Sample runtime arguments for ``Container/verify(arguments:isolation:)`` and
/// ``Container/verifyAsync(arguments:)``: one set per binding that takes arguments, async ones
/// included.
///
/// ```swift
/// var samples = SampleArguments()
/// samples.add(Download.self, arguments: url, 3)
/// samples.add(Thumbnail.self, tag: "small", arguments: url)
/// ```
public struct SampleArguments {
  /// One binding's sample: its creation with the sample values, synchronous or awaited, in the
  /// verification's scope (so that the scoped bindings it needs are made, as for any binding).
  struct Sample {
    let create: (Scope) -> ResolutionError?
    let createAsync: (Scope) async -> ResolutionError?
  }

  private var samples: [BindingKey: Sample] = [:]
  /// The values the verification scope is made with.
  private(set) var scopeValues = ScopeValues()

  /// No samples.
  public init() {}

  /// Creates the binding of `type` (and `tag`) whose argument types are those of `arguments`
  /// with these values during verification.
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: The binding's tag, if it has one.
  ///   - first: The first sample argument.
  ///   - rest: The other sample arguments, of the bound types, in order.
  public mutating func add<T, First, each Argument>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, arguments first: First,
    _ rest: repeat each Argument
  ) {
    let signature = (First, repeat each Argument).self
    let key = BindingKey(T.self, tag: tag, argumentTypes: signature)
    let rest = (repeat each rest)
    // The values as one tuple, made here: an async function must not expand a parameter pack
    // (Swift 6.3 miscompiles it).
    let values: Any = (first, repeat each rest)
    samples[key] = Sample(
      create: { scope in
        do throws(ResolutionError) {
          _ = try scope.resolve(
            T.self, tag: key.tag, matching: .exact, arguments: first, repeat each rest)
          return nil
        } catch {
          return error
        }
      },
      createAsync: { scope in
        do throws(ResolutionError) {
          _ = try await scope.container.awaitArguments(
            for: T.self, tag: key.tag, matching: .exact, signature: signature, values, path: nil,
            scope: scope)
          return nil
        } catch {
          return error
        }
      })
  }

  /// Provides `value` to the scope that scoped bindings are verified in, as
  /// `makeScope { $0.provide(value) }` would to a request's.
  ///
  /// ```swift
  /// samples.addScopeValue(Request(id: 0))
  /// ```
  ///
  /// - Parameters:
  ///   - value: A sample of a value each scope provides
  ///     (``Registrar/bindScopeValue(_:tag:private:fileID:line:)``).
  ///   - type: The type it is declared as, if not its own.
  ///   - tag: The tag it is declared with, if any.
  public mutating func addScopeValue<T: Sendable>(
    _ value: T, as type: T.Type = T.self, tag: (any Hashable & Sendable)? = nil
  ) {
    scopeValues.provide(value, as: type, tag: tag)
  }

  /// The sample creation for the binding of `key`, if one was added.
  func sample(for key: BindingKey) -> Sample? { samples[key] }
}
