/// How a tagged request may be served.
///
/// The default, ``allowingFallback``, serves a tagged request from the untagged binding of the
/// same type when no binding carries the tag, and returns the very instance an untagged request
/// gets. ``exact`` refuses that fallback.
///
/// ```swift
/// // Only a binding tagged "audit" will do:
/// let logger = try container.resolve(Logger.self, tag: "audit", matching: .exact)
/// ```
public struct TagMatching: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let allowsFallback: Bool

  /// Use the tagged binding if there is one, else the untagged binding of the same type.
  public static let allowingFallback = TagMatching(allowsFallback: true)

  /// Use only a binding with exactly this tag.
  public static let exact = TagMatching(allowsFallback: false)

  public var description: String { allowsFallback ? "allowingFallback" : "exact" }
}
