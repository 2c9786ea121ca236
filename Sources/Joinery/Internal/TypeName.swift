/// Readable names for types, built only when a message needs them.
enum TypeName {
  /// The unqualified name, such as `FeedService` or `any HTTPClient`.
  static func of(_ type: Any.Type) -> String {
    String(describing: type)
  }

  /// The module-qualified name, used to tell apart types that share a short name.
  ///
  /// Private declaration contexts, whose names change between builds, are left out.
  static func qualified(_ type: Any.Type) -> String {
    withoutPrivateContexts(String(reflecting: type))
  }

  /// `name` without the `(unknown context at $1234abcd).` parts the runtime prints for private
  /// declarations: a scan, not a pattern, since reports name thousands of types.
  static func withoutPrivateContexts(_ name: String) -> String {
    let marker = "(unknown context at $"
    guard name.includes(marker) else { return name }
    var result = ""
    var rest = Substring(name)
    while let start = rest.firstOccurrence(of: marker) {
      result += rest[..<start.lowerBound]
      let afterMarker = rest[start.upperBound...]
      guard let close = afterMarker.firstIndex(of: ")") else {
        rest = rest[start.lowerBound...]
        break
      }
      rest = afterMarker[afterMarker.index(after: close)...]
      if rest.first == "." { rest = rest.dropFirst() }
    }
    return result + rest
  }

  /// The names of the element types of an argument tuple type, `()` for none.
  static func arguments(_ tupleType: Any.Type) -> String {
    let name = of(tupleType)
    return name.hasPrefix("(") ? name : "(\(name))"
  }

  /// The names of `types`, in parentheses: `(Int, String)`.
  static func list(_ types: [Any.Type]) -> String {
    "(" + types.map(of).joined(separator: ", ") + ")"
  }
}
