/// The identity of a binding: the type it provides, its tag, and the types of its runtime
/// arguments.
///
/// Keys compare types by identity (`ObjectIdentifier`), never by name, so two types called
/// `Logger` in different modules never collide.
///
/// ```swift
/// let key = BindingKey(Logger.self, tag: "audit")
/// print(key)  // Logger (tag "audit")
/// ```
public struct BindingKey: Hashable, Sendable, CustomStringConvertible {
  /// The type a resolve asks for.
  public var type: Any.Type { provided.type }
  /// The tag, or `nil` for an untagged binding.
  public let tag: BindingTag?
  /// The tuple type of the runtime arguments, or `nil` when the binding takes none.
  public var argumentTypes: Any.Type? { arguments?.type }

  @usableFromInline let provided: TypeIdentity
  @usableFromInline let arguments: TypeIdentity?

  /// Creates a key.
  ///
  /// ```swift
  /// let key = BindingKey(Downloader.self, argumentTypes: (URL, Int).self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The provided type.
  ///   - tag: The tag, if any.
  ///   - argumentTypes: The runtime argument types as a tuple type, if any.
  public init(
    _ type: Any.Type, tag: (any Hashable & Sendable)? = nil, argumentTypes: Any.Type? = nil
  ) {
    // Tested for `nil` before anything else: copying an optional existential goes through the
    // runtime's generic `Optional` value witnesses, about 80 instructions each.
    self.init(
      type, boxed: tag == nil ? nil : BindingTag(optional: tag), argumentTypes: argumentTypes)
  }

  /// A key from a tag already boxed, as the library keeps them.
  @usableFromInline
  init(_ type: Any.Type, boxed tag: BindingTag?, argumentTypes: Any.Type? = nil) {
    self.provided = TypeIdentity(type)
    self.tag = tag
    self.arguments = argumentTypes.map(TypeIdentity.init)
  }

  /// The type's short name.
  var shortName: String { TypeName.of(type) }

  /// The key as a reader sees it, such as `Logger (tag "audit")` or
  /// `Downloader (arguments (URL, Int))`.
  public var description: String {
    var text = shortName
    if let tag { text += " (tag \(tag))" }
    if let argumentTypes { text += " (arguments \(TypeName.arguments(argumentTypes)))" }
    return text
  }

  /// A stable sort order for reports: by type name, then tag text, then arguments.
  var sortKey: String {
    "\(shortName)\u{1}\(tag.map { "\($0)" } ?? "")\u{1}\(argumentTypes.map(TypeName.of) ?? "")"
  }
}

/// A type compared and hashed by identity (`ObjectIdentifier`), never by name: what lets
/// ``BindingKey`` synthesize its equality and hashing.
@usableFromInline
struct TypeIdentity: Hashable, Sendable {
  @usableFromInline let type: Any.Type

  @usableFromInline init(_ type: Any.Type) { self.type = type }

  @usableFromInline static func == (lhs: TypeIdentity, rhs: TypeIdentity) -> Bool {
    ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
  }

  @usableFromInline func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type))
  }
}
