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
    let names = catalog.names
    var otherArguments: [Int] = []
    var otherTags: [Int] = []
    for position in names.positions(of: requested.type) {
      let key = catalog.all[position].key
      // A contribution is not resolved by its key: the contributions fix names `resolveAll`.
      if key == requested || catalog.all[position].contribution != nil { continue }
      if ObjectIdentifier(key.argumentTypes ?? Void.self)
        != ObjectIdentifier(requested.argumentTypes ?? Void.self)
      {
        otherArguments.append(position)
      } else if key.tag != requested.tag {
        otherTags.append(position)
      }
    }
    let similar = names.similar(to: SimilarName(requested.type), limit: 8) { position in
      let binding = catalog.all[position]
      return binding.key.type != requested.type && binding.contribution == nil
    }
    return names.first(8, of: otherArguments).map {
      NearMiss(.otherArguments, binding: catalog.all[$0])
    }
      + names.first(8, of: otherTags).map { NearMiss(.otherTag, binding: catalog.all[$0]) }
      + similar.map { position in
        let binding = catalog.all[position]
        return NearMiss(
          .similarType, binding: binding,
          sameShortName: binding.key.shortName == requested.shortName)
      }
  }
}

private func != (lhs: Any.Type, rhs: Any.Type) -> Bool {
  ObjectIdentifier(lhs) != ObjectIdentifier(rhs)
}

/// A type name folded for comparison: no `any `, no module, lowercased.
///
/// A class: a report compares each missing type's name with every bound one, and a struct of six
/// references cost six retains and releases per comparison.
final class SimilarName: Sendable {
  let type: Any.Type
  let folded: String
  let short: String
  /// `folded`'s bytes, for the edit distance and containment.
  let bytes: [UInt8]
  /// What the cheap first test of a pair reads (``Shape/mayContainOrSpell(_:)``).
  let shape: Shape
  /// The last capitalised word of `short` (``lastWord(of:)``).
  let lastWord: Substring?

  /// A name's length, bytes and pairs of adjacent bytes, summed up in three words: enough to
  /// rule out, in a few instructions, most pairs of names that neither contain one another nor
  /// are two edits apart, even generated names that share most of their bytes.
  struct Shape {
    let length: Int
    /// Which bytes occur, hashed to 64 bits.
    let present: UInt64
    /// Which pairs of adjacent bytes occur, hashed to 64 bits.
    let pairs: UInt64

    init(_ bytes: [UInt8]) {
      length = bytes.count
      var present: UInt64 = 0
      var pairs: UInt64 = 0
      var previous: UInt64?
      for byte in bytes {
        present |= 1 << UInt64(byte & 63)
        if let previous {
          pairs |= 1 << ((previous << 8 | UInt64(byte)) &* 0x9E37_79B9_7F4A_7C15 >> 58)
        }
        previous = UInt64(byte)
      }
      self.present = present
      self.pairs = pairs
    }

    /// Whether the names may contain one another (4 bytes or more) or be two edits apart: `false`
    /// is certain.
    func mayContainOrSpell(_ other: Shape) -> Bool {
      let (shorter, longer) = length <= other.length ? (self, other) : (other, self)
      // A substring's bytes and pairs all occur in the longer name.
      if shorter.length >= 4, shorter.present & ~longer.present == 0,
        shorter.pairs & ~longer.pairs == 0
      {
        return true
      }
      // An edit changes whether at most two bytes occur, and two pairs go, two come.
      return longer.length - shorter.length <= 2 && longer.length <= 40
        && (present ^ other.present).nonzeroBitCount <= 4
        && (pairs ^ other.pairs).nonzeroBitCount <= 8
    }
  }

  init(_ type: Any.Type) {
    self.type = type
    short = TypeName.of(type)
    var name = short.lowercased()
    if name.hasPrefix("any ") { name.removeFirst(4) }
    folded = name
    bytes = Array(name.utf8)
    shape = Shape(bytes)
    lastWord = Self.lastWord(of: short)
  }

  /// The module-qualified name: computed only when two short names are equal.
  var qualified: String { TypeName.qualified(type) }

  /// Whether `other` is a near miss of this name: the same short name in another module, the
  /// same folded name, the same last word, one containing the other (4 bytes or more), or at
  /// most two edits apart.
  ///
  /// The names' shapes are compared before their bytes: a report compares every missing type
  /// with every bound one, so most pairs must be ruled out in a few instructions.
  func isSimilar(to other: SimilarName) -> Bool {
    if short == other.short { return qualified != other.qualified }
    if folded == other.folded { return true }
    if let suffix = lastWord, suffix.count >= 4, suffix == other.lastWord {
      return true
    }
    guard shape.mayContainOrSpell(other.shape) else { return false }
    let (shorter, longer) = bytes.count <= other.bytes.count ? (self, other) : (other, self)
    if shorter.bytes.count >= 4, longer.bytes.contains(shorter.bytes) {
      return true
    }
    return longer.bytes.count - shorter.bytes.count <= 2 && longer.bytes.count <= 40
      && withinEdits(bytes, other.bytes, 2)
  }

  /// The last capitalised word of a type name: `Client` in `URLSessionClient`.
  static func lastWord(of name: String) -> Substring? {
    guard let start = name.lastIndex(where: { $0.isUppercase }) else { return nil }
    let word = name[start...]
    return word.allSatisfy { $0.isLetter } ? word : nil
  }
}

/// Whether `a` and `b` are at most `edits` insertions, deletions or substitutions apart
/// (Levenshtein), without a table.
///
/// A common prefix and suffix need no edit. Past them the first bytes differ, so one of them is
/// edited: substituted, deleted, or preceded by an insertion; each choice is tried with one
/// edit fewer. At most 3^`edits` branches, each a scan: no allocation, and generated names
/// (a generic type's instances, alike but for a few bytes) cost a few dozen comparisons.
private func withinEdits(
  _ a: [UInt8], _ b: [UInt8], _ edits: Int, from: (a: Int, b: Int) = (0, 0),
  to: (a: Int, b: Int)? = nil
) -> Bool {
  var (startA, startB) = from
  var (endA, endB) = to ?? (a.count, b.count)
  while startA < endA, startB < endB, a[startA] == b[startB] {
    (startA, startB) = (startA + 1, startB + 1)
  }
  while endA > startA, endB > startB, a[endA - 1] == b[endB - 1] {
    (endA, endB) = (endA - 1, endB - 1)
  }
  let (countA, countB) = (endA - startA, endB - startB)
  if countA == 0 || countB == 0 { return max(countA, countB) <= edits }
  guard edits > 0, abs(countA - countB) <= edits else { return false }
  let end = (endA, endB)
  return withinEdits(a, b, edits - 1, from: (startA + 1, startB + 1), to: end)
    || withinEdits(a, b, edits - 1, from: (startA + 1, startB), to: end)
    || withinEdits(a, b, edits - 1, from: (startA, startB + 1), to: end)
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
