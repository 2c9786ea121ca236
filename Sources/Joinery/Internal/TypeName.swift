/// Readable names for types, built only when a message needs them.
enum TypeName {
  /// The unqualified name, such as `FeedService` or `any HTTPClient`.
  ///
  /// What `String(describing:)` prints for a type, without its casts: it first asks whether the
  /// metatype conforms to three protocols, and the runtime answers a type it has not seen by
  /// scanning every conformance record of the process. A report naming a thousand types paid
  /// that a thousand times.
  static func of(_ type: Any.Type) -> String {
    _typeName(type, qualified: false)
  }

  /// The module-qualified name, used to tell apart types that share a short name.
  ///
  /// Private declaration contexts, whose names change between builds, are left out.
  static func qualified(_ type: Any.Type) -> String {
    withoutPrivateContexts(_typeName(type, qualified: true))
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

  /// Whether `type` is declared in the Joinery module (a `Provider`, a `Lazy`…), as its
  /// qualified name says: the test to make before casting a type no binding serves to a
  /// protocol only Joinery's types conform to.
  ///
  /// The runtime answers such a cast, for a type it has not seen, by scanning every conformance
  /// record of the process: tens of microseconds, paid once per missing dependency. A name, once
  /// made, is kept by the runtime.
  static func isJoineryType(_ type: Any.Type) -> Bool {
    _typeName(type, qualified: true).hasPrefix("Joinery.")
  }

  /// Whether `type` is an `Array`, tested by name for the same reason as ``isJoineryType(_:)``.
  static func isArray(_ type: Any.Type) -> Bool {
    _typeName(type, qualified: true).hasPrefix("Swift.Array<")
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
