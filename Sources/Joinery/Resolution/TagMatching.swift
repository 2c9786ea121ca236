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
public struct TagMatching: Hashable, Sendable {
  @usableFromInline let allowsFallback: Bool

  @inlinable init(allowsFallback: Bool) { self.allowsFallback = allowsFallback }

  /// Use the tagged binding if there is one, else the untagged binding of the same type.
  @inlinable public static var allowingFallback: TagMatching { TagMatching(allowsFallback: true) }

  /// Use only a binding with exactly this tag.
  @inlinable public static var exact: TagMatching { TagMatching(allowsFallback: false) }
}
