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
    for position in catalog.names.candidates(similarTo: wanted) {
      let binding = catalog.all[position]
      guard binding.key.type != requested.type, binding.contribution == nil,
        wanted.isSimilar(to: catalog.names.name(at: position, of: binding.key.type))
      else { continue }
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

  init(_ type: Any.Type) {
    self.type = type
    short = TypeName.of(type)
    var name = short.lowercased()
    if name.hasPrefix("any ") { name.removeFirst(4) }
    folded = name
  }

  /// The module-qualified name: computed only when two short names are equal.
  var qualified: String { TypeName.qualified(type) }

  func isSimilar(to other: SimilarName) -> Bool {
    if short == other.short { return qualified != other.qualified }
    let (a, b) = (folded, other.folded)
    if a == b { return true }
    if min(a.count, b.count) >= 4,
      a.hasPrefix(b) || b.hasPrefix(a) || a.includes(b) || b.includes(a)
    {
      return true
    }
    if let suffix = lastWord(of: short), suffix.count >= 4, suffix == lastWord(of: other.short) {
      return true
    }
    return max(a.count, b.count) <= 40 && editDistance(Array(a.utf8), Array(b.utf8), limit: 2) <= 2
  }

  /// The last capitalised word of a type name: `Client` in `URLSessionClient`.
  func lastWord(of name: String) -> Substring? {
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
