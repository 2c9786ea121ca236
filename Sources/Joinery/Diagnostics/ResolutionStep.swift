/// One request on the way from the top-level resolve to a failure.
///
/// A ``ResolutionError`` carries its ``ResolutionError/path`` as steps: `App → FeedService →
/// HTTPClient` is three steps, the last of which failed.
///
/// ```swift
/// catch let error as ResolutionError {
///   print(error.path.map(\.description))  // ["App", "FeedService", "HTTPClient"]
/// }
/// ```
public struct ResolutionStep: Sendable, CustomStringConvertible {
  /// What this step asked for.
  public let requested: BindingKey
  /// The binding that served the request, or `nil` where none could.
  public let binding: BindingInfo?

  /// Whether a tagged request was served by the untagged binding.
  var usedFallback: Bool {
    requested.tag != nil && binding != nil && binding?.key.tag == nil
  }

  /// A one-line, human-readable description.
  public var description: String {
    var text = requested.shortName
    if let tag = requested.tag {
      text += usedFallback ? " (tag \(tag) → untagged)" : " (tag \(tag))"
    }
    return text
  }
}

extension [ResolutionStep] {
  /// The path as one line: `App → FeedService → HTTPClient`; a path longer than 12 steps keeps
  /// its first and last five, with the number left out between them.
  var arrowLine: String {
    guard count > 12 else { return map(\.description).joined(separator: " → ") }
    let head = prefix(5).map(\.description)
    let tail = suffix(5).map(\.description)
    return (head + ["… \(count - 10) more …"] + tail).joined(separator: " → ")
  }
}
