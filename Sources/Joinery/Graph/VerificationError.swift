/// The error ``Container/verify(arguments:isolation:)`` throws: every binding that failed, with its own report.
///
/// ```swift
/// do {
///   try container.verify()
/// } catch {
///   for failure in error.failures { print(failure) }
/// }
/// ```
public struct VerificationError: Error, Sendable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// Every failure, one per binding that could not be created, sorted by key.
  public let failures: [ResolutionError]
  /// What was verified and skipped.
  public let report: VerificationReport

  /// A one-line, human-readable description.
  public var description: String {
    "Verification failed for \(failures.count) binding\(failures.count == 1 ? "" : "s"): "
      + failures.map { $0.path.first?.description ?? "\($0.requested)" }.joined(separator: ", ")
  }

  /// The full report, for `print(String(reflecting:))` and test failures.
  public var debugDescription: String {
    ([description]
      + failures.enumerated().map { "\($0.offset + 1). \($0.element.debugDescription)" })
      .joined(separator: "\n")
  }
}
