/// A name that tells apart several bindings of the same type.
///
/// Any `Hashable & Sendable` value can be a tag: a string, an enum case, a struct. APIs that take
/// a tag accept the plain value and wrap it for you; use `BindingTag` directly when you want a typed
/// constant.
///
/// ```swift
/// enum Store: Hashable, Sendable { case memory, disk }
///
/// registrar.bind(Cache.self, tag: Store.disk, lifetime: .persistent) { _ in DiskCache() }
/// let cache = try container.resolve(Cache.self, tag: Store.disk)
///
/// extension BindingTag { static let analytics: BindingTag = "analytics" }
/// let logger = try container.resolve(Logger.self, tag: BindingTag.analytics)
/// ```
///
/// Two tags are equal when they wrap values of the same type that compare equal, so the string
/// `"disk"` and the enum case `Store.disk` are different tags.
public struct BindingTag: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  @usableFromInline let value: any Hashable & Sendable

  /// Wraps a value as a tag; wrapping a `BindingTag` returns it unchanged.
  ///
  /// ```swift
  /// let tag = BindingTag(Store.disk)
  /// ```
  ///
  /// - Parameter value: Any hashable, sendable value.
  public init(_ value: some Hashable & Sendable) {
    if let tag = value as? BindingTag {
      self = tag
    } else {
      self.value = value
    }
  }

  /// Creates a string tag from a literal.
  ///
  /// ```swift
  /// let tag: BindingTag = "analytics"
  /// ```
  ///
  /// - Parameter value: The tag's text.
  public init(stringLiteral value: String) {
    self.value = value
  }

  /// The wrapped value.
  public var base: any Hashable & Sendable { value }

  public static func == (lhs: BindingTag, rhs: BindingTag) -> Bool {
    lhs.value.isEqual(to: rhs.value)
  }

  public func hash(into hasher: inout Hasher) {
    value.hash(into: &hasher)
  }

  /// The tag as written at a call site: strings quoted, other values as they describe themselves.
  public var description: String {
    if let text = value as? String {
      return "\"\(text)\""
    }
    return "\(type(of: value) as Any.Type).\(value)".replacingPrefix(ofType: type(of: value))
  }
}

extension Hashable {
  fileprivate func isEqual(to other: any Hashable) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

extension String {
  /// Shortens `Module.Type.case` descriptions of enum tags to `.case`.
  fileprivate func replacingPrefix(ofType type: Any.Type) -> String {
    let prefix = "\(type)."
    return hasPrefix(prefix) ? "." + dropFirst(prefix.count) : self
  }
}
