/// A binding that is close to a failed request, offered as a hint in error reports.
///
/// ```swift
/// catch let error as ResolutionError {
///   for miss in error.nearMisses { print(miss) }
///   // Logger is bound with tag "audit" — LoggingAssembly at Logging/LoggingAssembly.swift:7
/// }
/// ```
public struct NearMiss: Sendable, CustomStringConvertible {
  /// How the binding is close to the request: what its key shares with the requested one.
  enum Closeness: Sendable {
    /// The same type, bound with runtime arguments of other types.
    case otherArguments
    /// The same type under another tag (or untagged, when a tagged request asked for an exact
    /// match).
    case otherTag
    /// A type with a similar name, such as the concrete `FeedService` when `FeedServicing` was
    /// requested, or a same-named type from another module.
    case similarType
  }

  /// How the binding is close; its key against the request's says the same.
  let closeness: Closeness
  /// The binding: the same type with other argument types or under another tag, or another
  /// type with a similar name (compare `binding.key` with ``ResolutionError/requested``).
  public let binding: BindingInfo

  /// A one-line, human-readable description.
  public var description: String {
    let key = binding.key
    let place = "\(binding.registerName) at \(binding.location)"
    switch closeness {
    case .otherArguments:
      let arguments = key.argumentTypes.map(TypeName.arguments) ?? "()"
      let tag = key.tag.map { " with tag \($0)" } ?? ""
      return "\(key.shortName) is bound\(tag) with arguments \(arguments) — \(place)"
    case .otherTag:
      let tag = key.tag.map { "with tag \($0)" } ?? "untagged"
      let arguments = key.argumentTypes.map { " with arguments \(TypeName.arguments($0))" } ?? ""
      return "\(key.shortName) is bound \(tag)\(arguments) — \(place)"
    default:
      return "\(displayName) is bound\(key.tag.map { " with tag \($0)" } ?? "") — \(place)"
    }
  }

  /// The binding's type name, module-qualified when a same-named type was requested.
  var displayName: String {
    sameShortName ? TypeName.qualified(binding.key.type) : binding.key.shortName
  }

  /// Whether the binding's type has the requested type's short name (another module's type).
  let sameShortName: Bool

  init(_ closeness: Closeness, binding: BindingInfo, sameShortName: Bool = false) {
    self.closeness = closeness
    self.binding = binding
    self.sameShortName = sameShortName
  }

  /// Near misses of `requested` among the catalog's bindings: the same type under another tag
  /// or with other arguments, and types with similar names (found through the catalog's name
  /// index, so a report beside 10,000 bindings compares a handful of names, not all of them).
  static func find(for requested: BindingKey, in catalog: BindingCatalog) -> [NearMiss] {
    var misses: [NearMiss] = []
    for binding in catalog.byType[ObjectIdentifier(requested.type)] ?? [] {
      let key = binding.key
      // A contribution is not resolved by its key: the contributions fix names `resolveAll`.
      if key == requested || binding.contribution != nil { continue }
      if ObjectIdentifier(key.argumentTypes ?? Void.self)
        != ObjectIdentifier(requested.argumentTypes ?? Void.self)
      {
        misses.append(NearMiss(.otherArguments, binding: binding))
      } else if key.tag != requested.tag {
        misses.append(NearMiss(.otherTag, binding: binding))
      }
    }
    let wanted = SimilarName(requested.type)
    var similar: [NearMiss] = []
    for position in catalog.names.similar(to: wanted) {
      let binding = catalog.all[position]
      guard binding.key.type != requested.type, binding.contribution == nil else { continue }
      similar.append(
        NearMiss(
          .similarType, binding: binding,
          sameShortName: binding.key.shortName == requested.shortName))
    }
    similar.sort { $0.binding.key.sortKey < $1.binding.key.sortKey }
    misses.sort { $0.binding.key.sortKey < $1.binding.key.sortKey }
    return Array(misses.filter { $0.closeness == .otherArguments }.prefix(8))
      + misses.filter { $0.closeness == .otherTag }.prefix(8) + similar.prefix(8)
  }
}

private func != (lhs: Any.Type, rhs: Any.Type) -> Bool {
  ObjectIdentifier(lhs) != ObjectIdentifier(rhs)
}

/// A type name folded for comparison: no `any `, no module, lowercased.
struct SimilarName {
  let type: Any.Type
  let folded: String
  let short: String
  /// `folded`'s bytes, for the edit distance and containment.
  let bytes: [UInt8]
  /// Which bytes occur in `folded`, hashed to 64 bits: a cheap test that rules most pairs out
  /// before the comparisons that cost more.
  let present: UInt64
  /// The last capitalised word of `short` (``lastWord(of:)``).
  let lastWord: Substring?

  init(_ type: Any.Type) {
    self.type = type
    short = TypeName.of(type)
    var name = short.lowercased()
    if name.hasPrefix("any ") { name.removeFirst(4) }
    folded = name
    bytes = Array(name.utf8)
    present = bytes.reduce(0) { $0 | (1 << UInt64($1 & 63)) }
    lastWord = Self.lastWord(of: short)
  }

  /// The module-qualified name: computed only when two short names are equal.
  var qualified: String { TypeName.qualified(type) }

  /// Whether `other` is a near miss of this name: the same short name in another module, the
  /// same folded name, one containing the other (4 bytes or more), the same last word, or at
  /// most two edits apart.
  ///
  /// Cheap tests on the bytes present come first: a report compares every missing type with
  /// every bound one, so most pairs must be ruled out in a few instructions.
  func isSimilar(to other: SimilarName) -> Bool {
    if short == other.short { return qualified != other.qualified }
    if folded == other.folded { return true }
    let (shorter, longer) = bytes.count <= other.bytes.count ? (self, other) : (other, self)
    if shorter.bytes.count >= 4, shorter.present & ~longer.present == 0,
      longer.bytes.contains(shorter.bytes)
    {
      return true
    }
    if let suffix = lastWord, suffix.count >= 4, suffix == other.lastWord {
      return true
    }
    // Each edit changes whether at most two (hashed) bytes occur.
    return longer.bytes.count - shorter.bytes.count <= 2
      && (present ^ other.present).nonzeroBitCount <= 4 && longer.bytes.count <= 40
      && editDistance(bytes, other.bytes, limit: 2) <= 2
  }

  /// The last capitalised word of a type name: `Client` in `URLSessionClient`.
  static func lastWord(of name: String) -> Substring? {
    guard let start = name.lastIndex(where: { $0.isUppercase }) else { return nil }
    let word = name[start...]
    return word.allSatisfy { $0.isLetter } ? word : nil
  }
}

/// Levenshtein distance, giving up once every entry of a row exceeds `limit`.
private func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
  if abs(a.count - b.count) > limit { return limit + 1 }
  var previous = Array(0...b.count)
  var current = previous
  for i in 1...max(a.count, 1) where !a.isEmpty {
    current[0] = i
    var best = i
    for j in stride(from: 1, through: b.count, by: 1) {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      best = Swift.min(best, current[j])
    }
    if best > limit { return limit + 1 }
    swap(&previous, &current)
  }
  return a.isEmpty ? b.count : previous[b.count]
}

extension [UInt8] {
  /// Whether `needle` occurs in these bytes.
  fileprivate func contains(_ needle: [UInt8]) -> Bool {
    guard needle.count <= count else { return false }
    if needle.isEmpty { return true }
    for start in 0...(count - needle.count) where self[start] == needle[0] {
      var offset = 1
      while offset < needle.count, self[start + offset] == needle[offset] { offset += 1 }
      if offset == needle.count { return true }
    }
    return false
  }
}
