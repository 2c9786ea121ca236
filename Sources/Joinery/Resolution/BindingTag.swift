public import JoineryEngine

/// A name that tells apart several bindings of the same type.
///
/// Any `Hashable & Sendable` value can be a tag: a string, an enum case, a struct. APIs that take
/// a tag accept the plain value; use `BindingTag` when you want named constants.
///
/// ```swift
/// enum Store: Hashable, Sendable { case memory, disk }
///
/// registrar.bind(Cache.self, tag: Store.disk, lifetime: .persistent) { DiskCache() }
/// let cache = try container.resolve(Cache.self, tag: Store.disk)
///
/// extension BindingTag { static let analytics: BindingTag = "analytics" }
/// let logger = try container.resolve(Logger.self, tag: BindingTag.analytics)
/// ```
///
/// Two tags are equal when they wrap values of the same type that compare equal, so the string
/// `"disk"` and the enum case `Store.disk` are different tags.
public struct BindingTag: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  @usableFromInline let box: _TagBox

  /// Wraps a value as a tag; wrapping a `BindingTag` returns it unchanged.
  ///
  /// ```swift
  /// let tag = BindingTag(Store.disk)
  /// ```
  ///
  /// - Parameter value: Any hashable, sendable value.
  public init<Value: Hashable & Sendable>(_ value: Value) {
    // The type is compared first: a cast from an unspecialized `Value` is a runtime call.
    if Value.self == BindingTag.self, let tag = value as? BindingTag {
      self = tag
    } else if _isOptionalType(Value.self), let flattened = _flattenedTag(value) {
      // An optional tag stands for its value, as it does in `bind` and `resolve`.
      self = BindingTag(flattened)
    } else {
      box = _TagBox(value)
    }
  }

  /// The tag for a value that may be absent; `nil` for none.
  @usableFromInline
  init?(optional value: (any Hashable & Sendable)?) {
    guard let value else { return nil }
    self.init(value)
  }

  @usableFromInline
  init(box: _TagBox) {
    self.box = box
  }

  /// Creates a string tag from a literal.
  ///
  /// ```swift
  /// let tag: BindingTag = "analytics"
  /// ```
  ///
  /// - Parameter value: The tag's text.
  public init(stringLiteral value: String) {
    box = _TagBox(value)
  }

  /// The tag as written at a call site: strings quoted, enum cases as `.case`.
  public var description: String { box.description }
}

/// A tag's value, type-erased: the engine's ``_TagBox``, made once per binding.
extension _TagBox {
  /// The value as a report writes it: a string quoted, an enum case with its leading dot.
  var description: String {
    let value = base
    if let text = value as? String { return "\"\(text)\"" }
    return Mirror(reflecting: value).displayStyle == .enum ? ".\(value)" : "\(value)"
  }
}
