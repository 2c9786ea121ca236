/// The error ``ContainerBuilder/build(isolation:)`` throws: every problem found, at once.
///
/// ```swift
/// do {
///   let container = try builder.build()
/// } catch {
///   print(error.debugDescription)  // every finding with locations and fixes
/// }
/// ```
public struct BuildError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
  /// Every finding, errors first, in a deterministic order.
  public let diagnostics: [Diagnostic]

  /// A one-line, human-readable description.
  public var description: String {
    let errors = diagnostics.filter(\.isError)
    let first = errors.first.map { " First: \($0.message)" } ?? ""
    return
      "Container build failed with \(errors.count) error\(errors.count == 1 ? "" : "s").\(first)"
  }

  /// The full report, for `print(String(reflecting:))` and test failures.
  public var debugDescription: String {
    let errors = diagnostics.filter(\.isError).count
    let warnings = diagnostics.count - errors
    var lines = [
      "Container build failed: \(errors) error\(errors == 1 ? "" : "s"), "
        + "\(warnings) warning\(warnings == 1 ? "" : "s")."
    ]
    for (index, diagnostic) in diagnostics.enumerated() {
      lines.append("\(index + 1). \(diagnostic.debugDescription)")
    }
    return lines.joined(separator: "\n")
  }
}
