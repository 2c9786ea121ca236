/// A container's bindings as descriptions only: what error reports search for near misses.
///
/// Made on a container's first report that needs it and kept by the container and by the errors
/// that use it. It holds no binding and no instance, so an error that outlives its container
/// keeps nothing else alive.
final class BindingCatalog: Sendable {
  /// Every binding's description, in registration order.
  let all: [BindingInfo]
  /// The descriptions by bound type.
  let byType: [ObjectIdentifier: [BindingInfo]]

  /// The bindings' type names, indexed for the near-miss search; built on first use.
  let names: NameIndex

  init(_ bindings: [AnyBinding]) {
    all = bindings.map(\.info)
    var byType: [ObjectIdentifier: [BindingInfo]] = [:]
    for info in all { byType[ObjectIdentifier(info.key.type), default: []].append(info) }
    self.byType = byType
    names = NameIndex(keys: all.map(\.key))
  }
}

extension BindingCatalog {
  /// The fix for a missing `T` or `[T]` when `T` has contributions, which only `resolveAll`
  /// returns: autowiring fills a parameter from one binding.
  ///
  /// - Parameters:
  ///   - wanted: The missing key.
  ///   - consumer: The type whose factory asked for it, if any.
  /// - Returns: The fix, and whether `wanted` is the collection (`[T]`), whose fix comes first;
  ///   `nil` when `T` has no contributions.
  func contributionsFix(
    for wanted: BindingKey, consumer: String?
  ) -> (text: String, isCollection: Bool)? {
    guard wanted.argumentTypes == nil else { return nil }
    let collection =
      TypeName.isArray(wanted.type) ? wanted.type as? any ElementCollection.Type : nil
    let element = collection?.elementType ?? wanted.type
    let contributions = (byType[ObjectIdentifier(element)] ?? []).filter {
      $0.contribution != nil
    }
    guard !contributions.isEmpty else { return nil }
    let name = TypeName.of(element)
    let sameTag = contributions.filter { $0.key.tag == wanted.tag }
    var tags: [BindingTag?] = []
    for contribution in sameTag.isEmpty ? contributions : [sameTag[0]]
    where !tags.contains(contribution.key.tag) {
      tags.append(contribution.key.tag)
    }
    let calls = tags.map { "resolveAll(\(name).self\($0.map { ", tag: \($0)" } ?? ""))" }
    let call = calls.joined(separator: " or ")
    let tagged = wanted.tag.map { " under tag \($0)" } ?? ""
    let counted =
      sameTag.count == 1 ? "1 contribution\(tagged)" : "\(sameTag.count) contributions\(tagged)"
    let text =
      switch (collection != nil, consumer) {
      case (true, nil) where !sameTag.isEmpty: "\(name) has \(counted): request them with \(call)."
      case (true, let consumer?) where !sameTag.isEmpty:
        "\(name) has \(counted), and autowiring fills a parameter from one binding, not from "
          + "contributions: bind \(consumer) with a closure that gathers them: try resolver.\(call)."
      case (_, let consumer):
        "Or, if you meant \(name)'s "
          + (sameTag.isEmpty ? "contributions under other tags" : counted) + ", "
          + (consumer.map { "bind \($0) with a closure that gathers them: try resolver.\(call)." }
            ?? "request them with \(call).")
      }
    return (text, collection != nil && !sameTag.isEmpty)
  }
}

/// `[Element]` seen from a type-erased key, for `BindingCatalog.contributionsFix(for:consumer:)`.
protocol ElementCollection {
  static var elementType: Any.Type { get }
}

extension Array: ElementCollection {
  static var elementType: Any.Type { Element.self }
}

/// The type names of a catalog's bindings, folded and indexed once, so that a near-miss search
/// compares each distinct bound type once, with names computed once.
///
/// The same folded name, the same short name (another module's type) and the same last word
/// (`URLSessionClient` for `HTTPClient`) are found by hash. With at most ``linearLimit``
/// distinct types, containment and spellings two edits away are searched too: over flat arrays
/// of each name's length and bytes present, which rule out almost every pair in a few
/// instructions, before the few left are compared in full. Above the limit they are not, so
/// that a broken app's start-up report stays fast.
final class NameIndex: Sendable {
  /// Up to this many distinct types, every name is a candidate.
  static let linearLimit = 1_000

  private let keys: [BindingKey]
  private let state = Protected<State?>(nil)

  private struct State {
    /// One name per distinct bound type.
    var names: [SimilarName] = []
    /// Each name's shape (``SimilarName/Shape``), by position in `names`: what the first test
    /// of every pair reads, without touching a name.
    var shapes: [SimilarName.Shape] = []
    /// The catalog positions of each distinct type's bindings.
    var positions: [[Int]] = []
    /// The position in `names` of each distinct type.
    var distinct: [ObjectIdentifier: Int] = [:]
    /// Each catalog position's rank in the order reports list bindings (``BindingKey/sortKey``),
    /// so that picking a report's first few of many candidates compares integers, not names.
    var ranks: [Int] = []
    /// Each distinct type's smallest rank, and the types in that order.
    var minRanks: [Int] = []
    var typeOrder: [Int] = []
    var byFolded: [String: [Int]] = [:]
    var byShort: [String: [Int]] = [:]
    var byLastWord: [Substring: [Int]] = [:]
  }

  init(keys: [BindingKey]) { self.keys = keys }

  /// The catalog positions of the bindings of `type`.
  func positions(of type: Any.Type) -> [Int] {
    let state = built()
    return state.distinct[ObjectIdentifier(type)].map { state.positions[$0] } ?? []
  }

  /// The first `limit` of `positions` in the order reports list bindings.
  ///
  /// A selection, not a sort: a type bound under thousands of tags costs one pass per report.
  func first(_ limit: Int, of positions: [Int]) -> [Int] {
    guard positions.count > 1 else { return positions }
    return Self.first(limit, of: positions, ranks: built().ranks)
  }

  private static func first(_ limit: Int, of positions: [Int], ranks: [Int]) -> [Int] {
    var chosen: [Int] = []
    for position in positions {
      if chosen.count == limit, ranks[position] >= ranks[chosen[limit - 1]] { continue }
      let at = chosen.firstIndex { ranks[position] < ranks[$0] } ?? chosen.count
      chosen.insert(position, at: at)
      if chosen.count > limit { chosen.removeLast() }
    }
    return chosen
  }

  /// The first `limit` eligible bindings, in the order reports list bindings, whose type's name
  /// is similar to `wanted`.
  ///
  /// Types are tried in that order, so the search stops once `limit` are found that no later
  /// type could come before: names that are all alike (a generic type's instances) end it
  /// after a few; names that differ are ruled out by their lengths and bytes present.
  func similar(
    to wanted: SimilarName, limit: Int, where isEligible: (Int) -> Bool
  ) -> [Int] {
    let state = built()
    var hashed = Set<Int>()
    hashed.formUnion(state.byFolded[wanted.folded] ?? [])
    hashed.formUnion(state.byShort[wanted.short] ?? [])
    if let word = wanted.lastWord, word.count >= 4 {
      hashed.formUnion(state.byLastWord[word] ?? [])
    }
    let scansAll = state.names.count <= Self.linearLimit
    let order =
      scansAll ? state.typeOrder : hashed.sorted { state.minRanks[$0] < state.minRanks[$1] }
    var found: [Int] = []
    for type in order {
      if found.count == limit, state.ranks[found[limit - 1]] < state.minRanks[type] { break }
      if !hashed.contains(type), !wanted.shape.mayContainOrSpell(state.shapes[type]) { continue }
      guard wanted.isSimilar(to: state.names[type]) else { continue }
      let eligible = state.positions[type].filter(isEligible)
      if !eligible.isEmpty { found = Self.first(limit, of: found + eligible, ranks: state.ranks) }
    }
    return found
  }

  private func built() -> State {
    state.withLock { state in
      if let state { return state }
      var made = State()
      for (position, key) in keys.enumerated() {
        let type = key.type
        if let known = made.distinct[ObjectIdentifier(type)] {
          made.positions[known].append(position)
          continue
        }
        let index = made.names.count
        made.distinct[ObjectIdentifier(type)] = index
        let name = SimilarName(type)
        made.names.append(name)
        made.shapes.append(name.shape)
        made.positions.append([position])
        made.byFolded[name.folded, default: []].append(index)
        made.byShort[name.short, default: []].append(index)
        if let word = name.lastWord, word.count >= 4 {
          made.byLastWord[word, default: []].append(index)
        }
      }
      let sortKeys = keys.map(\.sortKey)
      made.ranks = Array(repeating: 0, count: keys.count)
      let order = sortKeys.indices.sorted { (sortKeys[$0], $0) < (sortKeys[$1], $1) }
      for (rank, position) in order.enumerated() { made.ranks[position] = rank }
      made.minRanks = made.positions.map { $0.map { made.ranks[$0] }.min() ?? 0 }
      made.typeOrder = made.names.indices.sorted { made.minRanks[$0] < made.minRanks[$1] }
      state = made
      return made
    }
  }
}
