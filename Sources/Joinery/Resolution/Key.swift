/// A typed name for one binding: its type, tag, and (for a multi-binding element) its place.
///
/// ```swift
/// extension Key where Value == any Logger {
///   static let audit = Key(Logger.self, tag: "audit")
/// }
/// let logger = try container.resolve(.audit)
/// ```
public struct Key<Value>: Hashable, Sendable, CustomStringConvertible {
  /// The binding's key.
  public let binding: BindingKey
  /// For a contribution to a multi-binding, its place among the contributions.
  public let contributionIndex: Int?

  init(binding: BindingKey, contributionIndex: Int?) {
    self.binding = binding
    self.contributionIndex = contributionIndex
  }

  /// A key for the binding of `type`, untagged or with `tag`.
  ///
  /// ```swift
  /// let key = Key(FeedService.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: The binding's tag, if any.
  public init(_ type: Value.Type = Value.self, tag: (any Hashable & Sendable)? = nil) {
    binding = BindingKey(Value.self, tag: tag)
    contributionIndex = nil
  }

  /// A one-line, human-readable description.
  public var description: String {
    contributionIndex.map { "\(binding) #\($0)" } ?? binding.description
  }
}
