internal import JoineryEngine

/// Composes registers and freezes them into a ``Container``.
///
/// Add the production assemblies, optionally override some bindings (in tests, or for a
/// variant), and call ``build(isolation:)``. The builder is a value: building twice gives two independent
/// containers, and a builder copied into each test can be overridden differently by each.
///
/// ```swift
/// let container = try ContainerBuilder(NetworkAssembly(), FeedAssembly())
///   .overriding(with: MockNetworkAssembly())   // wins whatever the order
///   .build()
/// ```
///
/// `build()` runs every register, resolves overrides, checks the declared graph and reports
/// every problem at once in a ``BuildError``. The order registers are added in never changes the
/// result.
///
/// A builder is `Sendable`: keep the production one in a `static let` and derive each test's
/// from it.
public struct ContainerBuilder: Sendable {
  var registers: [any DependencyRegister] = []
  var overrides: [any DependencyRegister] = []

  /// How many bindings deep one resolution may go before it fails with
  /// ``ResolutionError/Code/depthLimitExceeded``; 1,000 by default.
  ///
  /// Independently of this limit, a resolution that nears the end of its thread's stack fails
  /// with the same error instead of overflowing it; threads with small stacks (512 KiB) reach
  /// that point first, after a few hundred levels.
  ///
  /// ```swift
  /// var builder = ContainerBuilder(AppAssembly())
  /// builder.maximumResolutionDepth = 2_000  // a deliberately deep chain, on a large stack
  /// ```
  public var maximumResolutionDepth = 1_000

  /// Whether a tagged dependency must be served by a binding with that tag: when `true`,
  /// `build()` reports each declared tagged dependency that only the untagged fallback serves.
  ///
  /// `false` by default.
  ///
  /// ```swift
  /// var builder = ContainerBuilder(AppAssembly())
  /// builder.requiresExactTags = true
  /// ```
  public var requiresExactTags = false

  /// Whether every binding must be checked by `build()`: when `true`, a closure factory that
  /// declares no dependencies (`dependsOn:`) is a build error (``Diagnostic/Code/uncheckedBinding``)
  /// instead of a dashed edge in the graph.
  ///
  /// Initializers (`to:`), instances and forwards are always checked. `false` by default.
  ///
  /// ```swift
  /// var builder = ContainerBuilder(AppAssembly())
  /// builder.requiresCheckedBindings = true
  /// ```
  public var requiresCheckedBindings = false

  /// Where a ``Scope`` released without ``Scope/close()`` is reported, with the instances it
  /// had made; `nil` (the default) writes the report to standard error in debug builds and
  /// drops it in release builds.
  ///
  /// Those instances are disposed when the scope is released, as `close()` would, in a task
  /// of their own that ``Container/shutdown()`` waits for; a disposer's error is written to
  /// standard error. The report is there because nothing awaited that disposal.
  ///
  /// A server can route it to its logger.
  ///
  /// ```swift
  /// builder.onUnclosedScope = { message in logger.warning("\(message)") }
  /// ```
  public var onUnclosedScope: (@Sendable (String) -> Void)?

  /// The lifetime of every binding that names none (``Lifetime/For/default``), unless its
  /// register, or a register including it, sets its own ``DependencyRegister/defaultLifetime``.
  ///
  /// Only the unshared lifetimes can be defaults: a shared one needs a `Sendable` type, which
  /// the compiler checks only where the lifetime is written. A team coming from Swinject, whose
  /// default object scope is `.graph`, keeps that behaviour:
  ///
  /// ```swift
  /// let container = try ContainerBuilder(defaultLifetime: .graph, LegacyAssembly()).build()
  /// ```
  public var defaultLifetime: Lifetime.For<Any> = .ephemeral

  /// Creates a builder with registers.
  ///
  /// ```swift
  /// let builder = ContainerBuilder(NetworkAssembly(), FeedAssembly(), ProfileAssembly())
  /// ```
  ///
  /// Registers chosen at run time come as an array, which is a register itself:
  ///
  /// ```swift
  /// let features: [any DependencyRegister] = enabledFeatures.map(\.assembly)
  /// let builder = ContainerBuilder(NetworkAssembly(), features)
  /// ```
  ///
  /// - Parameters:
  ///   - defaultLifetime: The lifetime of bindings that name none and whose registers set no
  ///     ``DependencyRegister/defaultLifetime``; ephemeral unless given.
  ///   - registers: Assemblies or other registers.
  public init(
    defaultLifetime: Lifetime.For<Any> = .ephemeral, _ registers: any DependencyRegister...
  ) {
    self.defaultLifetime = defaultLifetime
    self.registers = registers
  }

  /// Returns a copy of this builder with `register` added.
  ///
  /// ```swift
  /// let container = try ContainerBuilder().adding(FeedAssembly()).build()
  /// ```
  ///
  /// - Parameter register: An assembly or other register.
  /// - Returns: The new builder.
  public func adding(_ register: some DependencyRegister) -> ContainerBuilder {
    var copy = self
    copy.registers.append(register)
    return copy
  }

  /// Returns a copy of this builder with `register`'s bindings (and those of its includes) as
  /// overrides: they replace bindings of the same key elsewhere, whatever the order the
  /// registers were added in.
  ///
  /// ```swift
  /// struct MockNetwork: Assembly {
  ///   func register(in registrar: inout Registrar) {
  ///     registrar.bind(HTTPClient.self, lifetime: .persistent) { _ in MockHTTPClient() }
  ///   }
  /// }
  /// let container = try ContainerBuilder(AppAssembly()).overriding(with: MockNetwork()).build()
  /// ```
  ///
  /// An override that replaces nothing is kept as a binding and reported as a warning in
  /// ``Container/warnings``.
  ///
  /// - Parameter register: The register with replacement bindings.
  /// - Returns: The new builder.
  public func overriding(with register: some DependencyRegister) -> ContainerBuilder {
    var copy = self
    copy.overrides.append(register)
    return copy
  }

  /// Runs every register, checks the graph, and freezes it into a new container.
  ///
  /// ```swift
  /// do {
  ///   let container = try builder.build()
  /// } catch {
  ///   print(error.debugDescription)
  /// }
  /// ```
  ///
  /// Eager persistent bindings are created before it returns; a main-actor one
  /// (`bindMainActor`) when the caller is isolated to the main actor, as an app's startup code
  /// and a `@MainActor` test are. If one of them fails, the build throws, and the instances it
  /// made already are disposed (in a task of its own: `build()` cannot await a disposer), as
  /// nobody gets a container to shut down.
  ///
  /// - Parameter isolation: The caller's actor, passed implicitly (`#isolation`).
  /// - Returns: A new, independent container.
  /// - Throws: ``BuildError`` listing every problem found — duplicates, missing dependencies,
  ///   cycles and captive dependencies among declared dependencies, invalid forwards, weak
  ///   lifetimes on value types, eager factories that failed — each with its register and
  ///   source location.
  public func build(isolation: isolated (any Actor)? = #isolation) throws(BuildError) -> Container {
    try build(parent: nil, isolation: isolation)
  }

  /// Builds the container as ``build(isolation:)`` does, then creates the eager persistent bindings whose
  /// factories are `async` (which `build()` cannot await) before returning it.
  ///
  /// ```swift
  /// let container = try await ContainerBuilder(AppAssembly()).buildAsync()
  /// // The eager async database pool is open now.
  /// ```
  ///
  /// - Parameter isolation: The caller's actor, passed implicitly (`#isolation`): the build runs
  ///   there, so eager main-actor bindings are created when it is the main actor.
  /// - Returns: A new, independent container, every eager binding created.
  /// - Throws: ``BuildError`` as ``build(isolation:)`` does, and for an eager async factory that
  ///   failed; the instances the build made are disposed before it throws.
  public func buildAsync(
    isolation: isolated (any Actor)? = #isolation
  ) async throws(BuildError) -> Container {
    var (container, findings) = try makeContainer(
      parent: nil, awaitsEagerAsync: true, isolation: isolation)
    let eager = container.all.compactMap(\.asyncFactory).filter {
      $0.lifetime.isEager
    }
    for binding in eager.sorted(by: { $0.key.sortKey < $1.key.sortKey }) {
      do throws(ResolutionError) {
        _ = try await container.awaitInstance(of: binding, path: nil)
      } catch {
        findings.append(Self.eagerCreationFailed(binding, error))
      }
    }
    if Self.hasErrors(findings) {
      // Nobody will get this container: dispose what its eager creations made, newest first,
      // before reporting why the build failed (the build's errors are what it throws).
      await Self.disposeAbandoned(container)
      try Self.failIfErrors(findings)
    }
    return container
  }

  /// Builds a container whose lookups continue in `parent` (a child container).
  ///
  /// `awaitsEagerAsync`: whether the caller creates the eager async bindings (`buildAsync`);
  /// `isolation`: the caller's, with which eager bindings are created.
  func build(parent: Container?, isolation: (any Actor)?) throws(BuildError) -> Container {
    let (container, findings) = try makeContainer(
      parent: parent, awaitsEagerAsync: false, isolation: isolation)
    if Self.hasErrors(findings) {
      // Nobody will get this container, and `build()` cannot await a disposer: dispose what
      // its eager creations made (a pool opened, a file locked) in a task of its own, newest
      // first. The build's errors are what it throws.
      if !container.disposals.isEmpty { Task { await Self.disposeAbandoned(container) } }
      try Self.failIfErrors(findings)
    }
    return container
  }

  /// Shuts down a container whose build failed; a disposer's failure, which no caller can
  /// catch, is written to standard error.
  private static func disposeAbandoned(_ container: Container) async {
    do {
      try await container.shutdown()
    } catch {
      let message = "Joinery: disposing what a failed build made threw: \(error)"
      _writeErrorLine(message)
    }
  }

  /// What validation leaves for making a container.
  private struct Validated {
    let collector: BindingCollector
    let winners: [AnyBinding]
    let contributions: [AnyBinding]
    let table: _BindingTable
    let privateBindings: [BindingKey: [AnyBinding]]
    var findings: [Diagnostic]
  }

  /// Checks this builder's registers as a module's own test target does: what its
  /// requirements name counts as bound elsewhere, and every other dependency must be its own.
  ///
  /// Returns the warnings; throws every error at once. Makes no container and runs no factory.
  func validateAlone() throws(BuildError) -> [Diagnostic] {
    let validated = try validate(parent: nil, awaitsEagerAsync: true, alone: true)
    return Diagnostic.sorted(validated.findings)
  }

  /// Runs the registers and checks what they declare; throws every error found.
  ///
  /// `alone`: each requirement is met by a stand-in binding (the module is checked without the
  /// modules that would bind it), and a missing dependency's report suggests declaring one.
  private func validate(
    parent: Container?, awaitsEagerAsync: Bool, alone: Bool = false
  ) throws(BuildError) -> Validated {
    let collector = BindingCollector(firstContributionIndex: parent?.nextContributionIndex ?? 0)
    let inherited = defaultLifetime.explicit ?? .ephemeral
    for register in registers {
      collector.collect(register, overriding: false, defaultLifetime: inherited)
    }
    for register in overrides {
      collector.collect(register, overriding: true, defaultLifetime: inherited)
    }

    var findings = collector.findings
    var winners = OverrideResolution.winners(
      withModules: collector.bindings, hasPrivate: collector.hasPrivate,
      hasTargetedOverride: collector.hasTargetedOverride, parent: parent, findings: &findings)
    let contributions = OverrideResolution.keptContributions(collector.contributions)
    for contribution in contributions where contribution.isPrivate && contribution.module == nil {
      findings.append(OverrideResolution.privateOutsideAssembly(contribution))
      contribution.isPrivate = false
    }
    // A private binding is found only from its own module's bindings: not by the table.
    let hasPrivate = collector.hasPrivate && winners.contains(where: \.isPrivate)
    var table = _BindingTable(hasPrivate ? winners.filter { !$0.isPrivate } : winners)
    let privateWinners = hasPrivate ? winners.filter(\.isPrivate) : []
    let privateBindings = Dictionary(grouping: privateWinners, by: \.key)
    if hasPrivate {
      findings += OverrideResolution.conflicts(of: privateWinners, table: table, parent: parent)
    }
    if !collector.requirements.isEmpty {
      let unmet = Self.unmetRequirements(
        collector.requirements, table: table, privateBindings: privateBindings, parent: parent)
      if alone {
        winners += unmet.map(\.standIn)
        table = _BindingTable(winners.filter { !$0.isPrivate })
      } else {
        findings += unmet.map { Self.unmet($0, keptBy: privateBindings[$0.key]?.first) }
      }
    }
    Self.attachCompletions(collector.completions, to: table, into: &findings)
    let graph = DeclaredGraph(
      winners + contributions, table: table,
      allowedCaptives: collector.allowedCaptives,
      requiresExactTags: requiresExactTags, parent: parent,
      privateBindings: privateBindings)
    if maximumResolutionDepth < 1 {
      findings.append(
        Diagnostic(
          .invalidSetting, .error, key: BindingKey(ContainerBuilder.self), bindings: [],
          message: """
            maximumResolutionDepth is \(maximumResolutionDepth); no resolution could create \
            anything.
            """,
          fixes: [
            "Set ContainerBuilder.maximumResolutionDepth to 1 or more (the default is 1,000)."
          ]))
    }
    let validators: [any BuildValidator] = [
      UnmatchableTagValidator(),
      TransientValueTypeValidator(),
      LifetimeSupportValidator(),
      ForwardingTargetValidator(),
      MissingDependencyValidator(),
      PrivateDependencyValidator(),
      ExactTagValidator(),
      CycleValidator(),
      CaptiveDependencyValidator(),
      IsolationValidator(awaitsEagerAsync: awaitsEagerAsync),
    ]
    if requiresCheckedBindings { UncheckedBindingValidator().validate(graph, into: &findings) }
    for validator in validators { validator.validate(graph, into: &findings) }
    if alone { findings = findings.map(Self.suggestingRequirement) }
    try Self.failIfErrors(findings)
    return Validated(
      collector: collector, winners: winners, contributions: contributions, table: table,
      privateBindings: privateBindings, findings: findings)
  }

  /// Validates the bindings, makes the container and creates its eager synchronous bindings.
  ///
  /// Returns the container with every finding, eager failures included: the caller disposes
  /// what was made before it throws them. Throws, making nothing, when validation fails.
  private func makeContainer(
    parent: Container?, awaitsEagerAsync: Bool, isolation: (any Actor)?
  ) throws(BuildError) -> (Container, [Diagnostic]) {
    let validated = try validate(parent: parent, awaitsEagerAsync: awaitsEagerAsync)
    let (collector, winners, contributions, table) = (
      validated.collector, validated.winners, validated.contributions, validated.table
    )
    var findings = validated.findings
    if !awaitsEagerAsync {
      for binding in winners
      where binding.isAsync && binding.lifetime.isEager {
        findings.append(
          Diagnostic(
            .eagerAsyncBinding, .warning, key: binding.key, bindings: [binding.info],
            message: """
              \(binding.key) is eager, but its factory is async: build() cannot await it, so it \
              is created at its first resolve.
              """,
            fixes: [
              "Build with `try await builder.buildAsync()`, which creates eager async bindings "
                + "before it returns."
            ]))
      }
    }

    let warnings = Diagnostic.sorted(findings)
    let container = Container(
      bindings: winners, contributions: contributions, table: table,
      maximumDepth: maximumResolutionDepth, warnings: warnings, parent: parent,
      unclosedScopeHandler: onUnclosedScope, defaultLifetime: self.defaultLifetime,
      allowedCaptives: Set(collector.allowedCaptives.keys), requirements: collector.requirements,
      privateBindings: validated.privateBindings)
    let eager = container.all.filter {
      $0.lifetime.isEager && $0.forwardTargetKey == nil && !$0.isAsync
    }
    for binding in eager.sorted(by: { $0.key.sortKey < $1.key.sortKey }) {
      // Resolved once, as a first request would: the binding keeps what it made.
      let failure = _withTemporaryInstance(binding.layout) { slot -> ResolutionError? in
        do throws(ResolutionError) {
          try binding.resolve(
            into: slot, in: container, parent: .topLevel(isolation), fallbackTag: nil)
          slot.destroy(binding.layout)
          return nil
        } catch {
          return error
        }
      }
      if let failure { findings.append(Self.eagerCreationFailed(binding, failure)) }
    }
    return (container, findings)
  }

  /// Gives each `initCompleted` step to the binding of its key that won; a step for a key
  /// nothing binds, or for an async binding, is an error.
  private static func attachCompletions(
    _ completions: [(key: BindingKey, location: BindingLocation, completion: Completion)],
    to table: _BindingTable, into findings: inout [Diagnostic]
  ) {
    for (key, location, completion) in completions {
      guard let binding = table.binding(for: key), !binding.isAsync else {
        let asyncBinding = table.binding(for: key)?.isAsync == true
        let step = BindingInfo(
          key: key, lifetime: .ephemeral, location: location, registerType: ContainerBuilder.self,
          isOverride: false, forwardedTo: nil, metadata: nil, contribution: nil,
          isChecked: true, assembly: nil, isPrivate: false)
        findings.append(
          Diagnostic(
            asyncBinding ? .unsupportedLifetime : .missingDependency, .error, key: key,
            bindings: [step],
            message: asyncBinding
              ? "initCompleted is declared for \(key), whose factory is async: it runs only "
                + "on instances made synchronously."
              : "initCompleted is declared for \(key), which is not bound.",
            fixes: [
              asyncBinding
                ? "Complete the instance at the end of its async factory instead."
                : "Bind \(key.shortName) in the assembly that declares the step, or remove it."
            ]))
        continue
      }
      if let previous = binding.completion {
        binding.completion = { resolver, instance in
          try previous(resolver, instance)
          try completion(resolver, instance)
        }
      } else {
        binding.completion = completion
      }
    }
  }

  /// The requirements nothing visible to their module binds (here, privately in that module,
  /// or in an ancestor), with the tag's fallback to the untagged binding.
  private static func unmetRequirements(
    _ requirements: [Requirement], table: _BindingTable,
    privateBindings: [BindingKey: [AnyBinding]], parent: Container?
  ) -> [Requirement] {
    func binds(_ key: BindingKey, _ module: Module?) -> Bool {
      table.binding(for: key) != nil || parent?.binds(key) == true
        || privateBindings[key]?.contains { $0.module === module && module != nil } == true
    }
    return requirements.filter { requirement in
      let key = requirement.key
      if binds(key, requirement.module) { return false }
      return key.tag == nil || !binds(BindingKey(key.type, boxed: nil), requirement.module)
    }
  }

  /// The finding for a requirement nothing binds, or only another assembly privately (`kept`).
  private static func unmet(_ requirement: Requirement, keptBy kept: AnyBinding?) -> Diagnostic {
    let owner = requirement.owner
    let key = requirement.key
    guard let kept, let keeper = kept.module?.name else {
      return Diagnostic(
        .unmetRequirement, .error, key: key, bindings: [requirement.info],
        message: """
          \(owner) requires \(key) (\(requirement.location)), which no module of this \
          container binds.
          """,
        fixes: [
          "Add the assembly that binds \(key.shortName) to the builder, or bind it in the "
            + "app's assembly.",
          "Or, if \(owner) no longer needs it, remove the `require` at \(requirement.location).",
        ])
    }
    return Diagnostic(
      .unmetRequirement, .error, key: key, bindings: [requirement.info, kept.info],
      message: """
        \(owner) requires \(key) (\(requirement.location)); \(keeper) binds it, but privately \
        (\(kept.location)), so \(owner) cannot see it.
        """,
      fixes: [
        "Require what \(keeper) exports instead (a protocol it binds without `private: true`).",
        "Or drop `private: true` from \(keeper)'s binding of \(key.shortName).",
      ])
  }

  /// A missing dependency's finding from a module checked alone, suggesting a requirement.
  private static func suggestingRequirement(_ finding: Diagnostic) -> Diagnostic {
    guard finding.code == .missingDependency, let consumer = finding.bindings.first else {
      return finding
    }
    let owner = consumer.assembly.map(TypeName.of) ?? consumer.registerName
    return Diagnostic(
      finding.code, finding.isError ? .error : .warning, key: finding.key,
      bindings: finding.bindings, message: finding.message,
      fixes: [
        "If another module binds it, declare that in \(owner): "
          + "`registrar.require(…)` with the type (and tag) named above."
      ] + finding.fixes,
      underlyingError: finding.underlyingError)
  }

  /// The finding for an eager binding whose creation at build failed.
  private static func eagerCreationFailed(
    _ binding: AnyBinding, _ error: ResolutionError
  ) -> Diagnostic {
    Diagnostic(
      .eagerCreationFailed, .error, key: binding.key, bindings: [binding.info],
      message: "Creating the eager \(binding.key) failed: \(error.summary)",
      fixes: error.fixes(nearMisses: error.nearMisses), underlyingError: error)
  }

  private static func hasErrors(_ findings: [Diagnostic]) -> Bool {
    findings.contains(where: \.isError)
  }

  private static func failIfErrors(_ findings: [Diagnostic]) throws(BuildError) {
    if hasErrors(findings) {
      throw BuildError(diagnostics: Diagnostic.sorted(findings))
    }
  }
}
