/// Readable names for types, built only when a message needs them.
enum TypeName {
  /// The unqualified name, such as `FeedService` or `any HTTPClient`.
  static func of(_ type: Any.Type) -> String {
    _typeName(type, qualified: false)
  }

  /// The module-qualified name, used to tell apart types that share a short name. Private
  /// declaration contexts, whose names change between builds, are left out.
  static func qualified(_ type: Any.Type) -> String {
    _typeName(type, qualified: true).replacing(/\(unknown context at \$[0-9a-f]+\)\./, with: "")
  }

  /// The names of the element types of an argument tuple type, `()` for none.
  static func arguments(_ tupleType: Any.Type) -> String {
    let name = of(tupleType)
    return name.hasPrefix("(") ? name : "(\(name))"
  }
}
