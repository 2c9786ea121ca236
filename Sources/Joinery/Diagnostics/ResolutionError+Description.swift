extension ResolutionError {
  /// One line: what happened and the path.
  public var description: String {
    "\(summary) [path: \(path.arrowLine)]"
  }

  /// The full report: what happened, where, the path with each binding's origin, near misses,
  /// and how to fix it.
  public var debugDescription: String {
    var lines = ["ResolutionError.\(code): \(summary)"]
    if let detail = storage.detail { lines.append("  \(detail)") }
    if let underlyingError {
      lines.append("  Underlying error: \(String(reflecting: underlyingError))")
    }
    lines.append("Resolution path: \(path.arrowLine)")
    let shown = path.count > 40 ? Array(path.prefix(10)) + Array(path.suffix(10)) : path
    let width = shown.map(\.description.count).max() ?? 0
    for (index, step) in shown.enumerated() {
      if path.count > 40 && index == 10 {
        lines.append("  … \(path.count - 20) more steps …")
      }
      let name = step.description + String(repeating: " ", count: width - step.description.count)
      if let binding = step.binding {
        lines.append(
          "  \(name)  [\(binding.lifetime)] \(binding.registerName) at \(binding.location)")
      } else {
        lines.append("  \(name)  (no binding)")
      }
    }
    let misses = nearMisses
    if !misses.isEmpty {
      lines.append("Near misses:")
      lines += misses.map { "  - \($0)" }
    }
    lines.append("To fix:")
    lines += fixes(nearMisses: misses).map { "  - \($0)" }
    return lines.joined(separator: "\n")
  }

  /// Whether an `initCompleted` step threw, not the factory.
  var isCompletionFailure: Bool { storage.detail == Self.completionStepDetail }

  /// Whether a `Provider`, `Lazy`, `@Injected(from:)` or `ScopeFactory` outlived its container.
  var isReleasedContainer: Bool { storage.detail == Self.releasedContainerDetail }

  /// Whether the request was cancelled while it awaited another request's creation.
  var isCancelledWait: Bool { storage.detail == Self.cancelledWaitDetail }

  var summary: String {
    switch code {
    case .missingBinding:
      return "No binding for \(requested)."
    case .argumentMismatch:
      let given = requested.argumentTypes.map(TypeName.arguments) ?? "()"
      var expected: [String] = []
      for miss in nearMisses where miss.closeness == .otherArguments {
        let arguments = miss.binding.key.argumentTypes.map(TypeName.arguments) ?? "no arguments"
        if !expected.contains(arguments) { expected.append(arguments) }
      }
      let expectedText = expected.isEmpty ? "other arguments" : expected.joined(separator: " or ")
      return "\(requested.shortName) takes \(expectedText), but the resolve passed \(given)."
    case .cycle:
      return "Dependency cycle: \(cycle.map(\.description).joined(separator: " → "))."
    case .factoryFailed:
      let error = underlyingError.map { "\($0)" } ?? "an error"
      if isCompletionFailure { return "The initCompleted step of \(requested) threw: \(error)." }
      if isCancelledWait { return "The request for \(requested) was cancelled." }
      return "The factory of \(requested) threw: \(error)."
    case .transientValueType:
      return "\(requested) is transient (weak), but its instance is a value type."
    case .depthLimitExceeded:
      return "Resolution of \(requested) is too deep."
    case .forwardingTypeMismatch:
      let target = binding?.forwardedTo.map { "\($0)" } ?? "its target"
      return "\(requested) forwards to \(target), whose instance is not a \(requested.shortName)."
    case .notCached:
      return "store(_:for:) needs a cached binding, and \(requested) is not cached."
    case .noCurrentContainer:
      return "\(requested) was requested with no container in scope."
    case .mainActorRequired:
      return
        "\(requested) is bound to the main actor, and was requested from code that is not "
        + "isolated to the main actor, off the main thread."
    case .asyncBinding:
      return "\(requested) has an async factory, and was requested synchronously."
    case .scopeRequired:
      return "\(requested) is scoped, and was requested outside any scope."
    case .scopeValueMissing:
      return "\(requested) is provided by each scope, and this scope was made without it."
    case .captiveDependency:
      return "\(requested) was requested while a longer-lived instance that would keep it was "
        + "being created (a captive dependency)."
    case .shutDown where isReleasedContainer:
      return "\(requested) was requested from a container that no longer exists."
    case .shutDown:
      let closed = storage.detail?.hasPrefix("The scope") == true
      return "\(requested) was requested after "
        + (closed ? "its scope was closed." : "the container was shut down.")
    default:
      return "Resolving \(requested) failed."
    }
  }

  func fixes(nearMisses misses: [NearMiss]) -> [String] {
    let name = requested.shortName
    switch code {
    case .missingBinding:
      let tag = requested.tag.map { ", tag: \($0)" } ?? ""
      // A `Provider` or `Lazy` is made from the binding of the type it wraps: bind that.
      var fixes = [
        "Bind \(name) in the assembly of its feature: "
          + "registrar.bind(\(name).self\(tag)) { resolver in … }."
      ]
      if TypeName.isJoineryType(requested.type),
        let derived = requested.type as? any DerivedFromContainer.Type
      {
        let wrapped = TypeName.of(derived.wrappedType)
        fixes = [
          "Bind \(wrapped)\(tag.isEmpty ? "" : " under that tag"): the container makes \(name) "
            + "from \(wrapped)'s binding: registrar.bind(\(wrapped).self\(tag)) { resolver in … }."
        ]
      }
      let consumer = path.count > 1 ? path[path.count - 2].requested.shortName : nil
      if let fix = storage.catalog?.contributionsFix(for: requested, consumer: consumer) {
        fixes =
          fix.isCollection
          ? [fix.text, "Or " + fixes[0].prefix(1).lowercased() + fixes[0].dropFirst()]
          : fixes + [fix.text]
      }
      for miss in misses where miss.closeness == .otherTag {
        let tag = miss.binding.key.tag.map { ", tag: \($0)" } ?? ""
        fixes.append("Or request the existing binding: resolve(\(name).self\(tag)).")
      }
      for miss in misses where miss.closeness == .otherArguments {
        let arguments = miss.binding.key.argumentTypes.map(TypeName.arguments) ?? "()"
        fixes.append(
          "Or pass its runtime arguments \(arguments): resolve(\(name).self, arguments: …).")
      }
      for miss in misses where miss.closeness == .similarType {
        fixes.append(
          "Or, if you meant \(miss.displayName), request that type, "
            + "or forward \(name) to it: registrar.bind(\(name).self, forwardingTo: "
            + "\(miss.binding.key.shortName).self).")
      }
      if path.count > 1 {
        fixes.append(
          "Or change \(path[path.count - 2].requested.shortName)'s factory not to need \(name).")
      }
      // Two near misses of one type (under two tags) would repeat the same advice.
      var seen = Set<String>()
      return fixes.filter { seen.insert($0).inserted }
    case .argumentMismatch:
      return [
        "Pass arguments of the bound types, in the bound order.",
        "Or bind \(name) for these argument types as well.",
      ]
    case .cycle:
      return [
        "Break the cycle: let one of them take the other as `Lazy<T>` or `Provider<T>` "
          + "(resolved on first use, after construction), set a property later, or depend on a "
          + "narrower protocol that does not lead back.",
        "Or move the shared state into a third binding both can depend on.",
      ]
    case .factoryFailed where isCancelledWait:
      return [
        "Nothing to fix if the task was meant to be cancelled: the creation goes on for the "
          + "other requests, and the next resolve gets its instance."
      ]
    case .factoryFailed where isCompletionFailure:
      return [
        "Fix the error the initCompleted step of \(name) threw (see Underlying error); "
          + "the next resolve makes a new instance and runs the step again."
      ]
    case .factoryFailed:
      return [
        "Fix the error the factory of \(name) threw (see Underlying error); "
          + "the next resolve calls the factory again."
      ]
    case .transientValueType:
      return [
        "Make \(name)'s implementation a class, or choose .persistent, .cached, .graph or "
          + ".ephemeral: a value type has no identity to share weakly."
      ]
    case .depthLimitExceeded:
      return [
        "Check for an unintended deep chain of dependencies.",
        "Or raise ContainerBuilder.maximumResolutionDepth (each level uses stack space).",
      ]
    case .forwardingTypeMismatch:
      return [
        "Make the target's implementation conform to \(name), or forward to a binding that does."
      ]
    case .notCached:
      return [
        "Bind \(name) with lifetime .cached or .cached(in:) to store instances into it: only a "
          + "cached instance is meant to be replaced (a persistent or transient one may already be "
          + "held by others, who would keep the old one while new resolves got the new).",
        "Or, for a value known at start-up, bind it with bind(\(name).self, instance: …).",
      ]
    case .shutDown where isReleasedContainer:
      return [
        "Keep the container alive as long as the instances that hold its Providers, Lazies or "
          + "ScopeFactory."
      ]
    case .asyncBinding:
      let tag = requested.tag.map { ", tag: \($0)" } ?? ""
      let arguments = requested.argumentTypes == nil ? "" : ", arguments: …"
      return [
        "Resolve it with `try await container.resolveAsync(\(name).self\(tag)\(arguments))` (or "
          + "`resolver.resolveAsync` in an async factory, `provider.getAsync()` through a "
          + "Provider<\(name)>)."
      ]
    case .mainActorRequired:
      return [
        "Resolve it from main-actor code (a @MainActor function or type), or await it from "
          + "anywhere else with `try await container.resolveAsync(\(name).self)`, which hops "
          + "to the main actor.",
        "Or bind it with bind(_:…) if its initializer needs no main actor.",
      ]
    case .scopeRequired:
      let consumer = path.count > 1 ? path[path.count - 2].requested.shortName : nil
      var fixes = [
        "Resolve it in a scope: `let scope = container.makeScope()`, then "
          + "`try scope.resolve(\(path.first?.requested.shortName ?? name).self)`, and "
          + "`try await scope.close()` when the unit of work ends."
      ]
      if let consumer {
        fixes.append("Or make \(consumer) scoped (or ephemeral) too, so it is made in a scope.")
      } else {
        // A top-level request: often a Provider kept by a container-wide instance, which
        // belongs to no scope.
        fixes.append(
          "If a Provider<\(name)> kept by a longer-lived object makes this request, pass it the "
            + "scope it works for: `provider.get(in: scope)`.")
      }
      return fixes
    case .captiveDependency:
      let consumer = path.count > 1 ? path[path.count - 2].requested.shortName : "the consumer"
      return [
        "Depend on Provider<\(name)> instead and call get() each time it is used: a Provider "
          + "resolves in the scope it was made in, or pass it a scope: get(in: scope).",
        "Or make \(consumer) as short-lived as \(name) (scoped or ephemeral).",
        "Or, if keeping it is intended, declare it: registrar.allowCaptive(…, dependency: "
          + "\(name).self, because: \"…\").",
      ]
    case .scopeValueMissing:
      return [
        "Provide it when the scope is made: `container.makeScope { values in "
          + "values.provide(\(name.prefix(1).lowercased() + name.dropFirst())) }`."
      ]
    case .shutDown:
      return [
        "Resolve only before `shutdown()` (or `close()` of the scope): shut the container down "
          + "after everything that uses it has stopped, the HTTP server's requests included.",
        "With swift-service-lifecycle (Hummingbird): list the container's service before the "
          + "services that use it, so the group stops it after them.",
        "With Vapor: call `container.shutdown()` after `app.asyncShutdown()` returns, not in a "
          + "LifecycleHandler (Vapor runs those before its server stops).",
      ]
    case .noCurrentContainer:
      return [
        "Make the object that declares it in a resolution (bind it and resolve it) or inside "
          + "`container.withCurrent { … }`: the property remembers that container (in tests: "
          + "the `.container` trait of JoineryTesting).",
        "Or name the container: @Injected(from: container).",
      ]
    default:
      return ["See the description above."]
    }
  }
}
