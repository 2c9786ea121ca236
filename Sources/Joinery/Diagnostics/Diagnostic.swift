/// One finding of ``ContainerBuilder/build(isolation:)``: a problem in the declared graph, with the
/// bindings involved, where they were declared, and how to fix it.
///
/// Errors fail the build together in one ``BuildError``; warnings are kept in
/// ``Container/warnings``.
///
/// ```swift
/// do {
///   _ = try builder.build()
/// } catch {
///   for finding in error.diagnostics { print(finding) }
///   // error: duplicateBinding: HTTPClient is bound twice: NetworkAssembly at … and MockAssembly at …
/// }
/// ```
public struct Diagnostic: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
  /// The rule a finding comes from.
  ///
  /// A struct with static members, so rules can be added.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let text: String
    let rank: Int

    /// Two registers bind the same key without an override, or two overrides replace it.
    public static let duplicateBinding = Code(text: "duplicateBinding", rank: 10)
    /// A builder setting that cannot work, such as a maximum resolution depth below 1.
    public static let invalidSetting = Code(text: "invalidSetting", rank: 5)
    /// A tag that does not equal itself (such as `Double.nan`): no request could ever match it.
    public static let unmatchableTag = Code(text: "unmatchableTag", rank: 15)
    /// A register without a default lifetime of its own, included twice with different
    /// defaults: its bindings' lifetimes would depend on the order registers were added.
    public static let conflictingDefaultLifetime = Code(
      text: "conflictingDefaultLifetime", rank: 12)
    /// A `transient` (weak) binding of a type that can never be a class instance.
    public static let transientValueType = Code(text: "transientValueType", rank: 20)
    /// A lifetime a binding form does not support, or an option its lifetime cannot honour:
    /// `dispose:` on a lifetime that keeps no instance, a scoped `async` binding.
    public static let unsupportedLifetime = Code(text: "unsupportedLifetime", rank: 21)
    /// A forwarding binding whose target is not bound, or is itself a forward.
    public static let invalidForwardingTarget = Code(text: "invalidForwardingTarget", rank: 30)
    /// A declared dependency that no binding serves; with
    /// ``ContainerBuilder/requiresExactTags``, also a tagged one that only the untagged binding
    /// serves (the message says so).
    public static let missingDependency = Code(text: "missingDependency", rank: 40)
    /// An assembly requires a key (``Registrar/require(_:tag:fileID:line:)``) that nothing it
    /// can see binds.
    public static let unmetRequirement = Code(text: "unmetRequirement", rank: 35)
    /// A binding depends on a binding another assembly keeps private (`private: true`).
    public static let privateDependency = Code(text: "privateDependency", rank: 39)
    /// Declared dependencies that form a cycle.
    public static let dependencyCycle = Code(text: "dependencyCycle", rank: 50)
    /// With checked bindings required, a closure factory that declares no dependencies.
    public static let uncheckedBinding = Code(text: "uncheckedBinding", rank: 42)
    /// A synchronous binding depends on one whose factory is `async`.
    public static let asyncDependency = Code(text: "asyncDependency", rank: 55)
    /// A binding not isolated to the main actor depends on a main-actor binding.
    public static let mainActorDependency = Code(text: "mainActorDependency", rank: 56)
    /// A binding that keeps its instance depends on a shorter-lived one.
    public static let captiveDependency = Code(text: "captiveDependency", rank: 60)
    /// An eager persistent binding failed when `build()` created it.
    public static let eagerCreationFailed = Code(text: "eagerCreationFailed", rank: 90)
    /// An eager persistent binding with an async factory, which only ``ContainerBuilder/buildAsync(isolation:)``
    /// creates at start-up (a warning from ``ContainerBuilder/build(isolation:)``).
    public static let eagerAsyncBinding = Code(text: "eagerAsyncBinding", rank: 95)
    /// An override that replaces nothing (a warning).
    public static let overrideWithoutTarget = Code(text: "overrideWithoutTarget", rank: 100)

    /// A one-line, human-readable description.
    public var description: String { text }
  }

  /// Whether a finding fails the build (an error) or is kept in ``Container/warnings``.
  enum Level: Sendable {
    case error, warning
  }

  /// The rule.
  public let code: Code
  /// Whether the finding fails the build; a warning, kept in ``Container/warnings``, does not.
  public let isError: Bool
  /// The key concerned.
  public let key: BindingKey
  /// The bindings involved, in declaration order (file, then line).
  public let bindings: [BindingInfo]
  /// What is wrong, in one sentence.
  public let message: String
  /// How to fix it.
  public let fixes: [String]
  /// The error behind the finding, such as an eager factory's.
  public let underlyingError: (any Error)?

  init(
    _ code: Code, _ level: Level, key: BindingKey, bindings: [BindingInfo],
    message: String, fixes: [String], underlyingError: (any Error)? = nil
  ) {
    self.code = code
    self.isError = level == .error
    self.key = key
    self.bindings = bindings.sorted { $0.location.isBefore($1.location) }
    self.message = message
    self.fixes = fixes
    self.underlyingError = underlyingError
  }

  /// `error: duplicateBinding: HTTPClient is bound twice …` on one line.
  public var description: String { "\(isError ? "error" : "warning"): \(code): \(message)" }

  /// The finding with its locations and fixes.
  ///
  /// Bindings declared at one place (a loop, or a helper that binds for its callers) share one
  /// `at` line, which says how many they are.
  public var debugDescription: String {
    var lines = [description]
    lines += Self.runs(of: bindings.map { "    at \($0.registerName) at \($0.location)" }).map {
      $0.count == 1 ? $0.text : "\($0.text) (\($0.count) bindings)"
    }
    if let underlyingError {
      lines.append("    underlying error: \(String(reflecting: underlyingError))")
    }
    lines += fixes.map { "    fix: \($0)" }
    return lines.joined(separator: "\n")
  }

  /// `texts` with each run of equal neighbours as one text and its length: sorted places, where
  /// a loop or a helper declared several bindings at one `file:line`.
  static func runs(of texts: [String]) -> [(text: String, count: Int)] {
    var runs: [(text: String, count: Int)] = []
    for text in texts {
      if runs.last?.text == text {
        runs[runs.count - 1].count += 1
      } else {
        runs.append((text, 1))
      }
    }
    return runs
  }

  /// Sorts findings so the same graph always reports in the same order.
  ///
  /// `findings` in report order: errors first, then by rule, key, location and message. Each
  /// key's sort text is computed once, not once per comparison: a broken app's report may hold
  /// thousands of findings.
  static func sorted(_ findings: [Diagnostic]) -> [Diagnostic] {
    let keyed = findings.map { ($0.key.sortKey, $0) }
    return keyed.sorted { lhs, rhs in
      let (leftKey, left) = lhs
      let (rightKey, right) = rhs
      if left.isError != right.isError { return left.isError }
      if left.code.rank != right.code.rank { return left.code.rank < right.code.rank }
      if leftKey != rightKey { return leftKey < rightKey }
      let leftLocation = left.bindings.first?.location
      let rightLocation = right.bindings.first?.location
      if let leftLocation, let rightLocation, leftLocation != rightLocation {
        return leftLocation.isBefore(rightLocation)
      }
      return left.message < right.message
    }.map(\.1)
  }
}
