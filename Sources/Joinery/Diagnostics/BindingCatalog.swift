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
    names = NameIndex(types: all.map(\.key.type))
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
    let collection = wanted.type as? any ElementCollection.Type
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
/// With at most ``linearLimit`` distinct types every name is compared (same or
/// module-qualified name, prefix, containment, a spelling two edits away). Above it, only the
/// names found through the index are: the same folded name, the same short name (another
/// module's type) or the same last word (`URLSessionClient` for `HTTPClient`); spelling
/// mistakes are not searched there, so that a broken app's start-up report stays fast.
final class NameIndex: Sendable {
  /// Up to this many distinct types, every name is a candidate.
  static let linearLimit = 1_000

  private let types: [Any.Type]
  private let state = Protected<State?>(nil)

  private struct State {
    /// One name per distinct bound type.
    var names: [SimilarName] = []
    /// The catalog positions of each distinct type's bindings.
    var positions: [[Int]] = []
    var byFolded: [String: [Int]] = [:]
    var byShort: [String: [Int]] = [:]
    var byLastWord: [Substring: [Int]] = [:]
  }

  init(types: [Any.Type]) { self.types = types }

  /// The positions of the bindings whose type's name is similar to `wanted`, in order.
  func similar(to wanted: SimilarName) -> [Int] {
    let state = built()
    var found: [Int] = []
    func consider(_ type: Int) {
      if wanted.isSimilar(to: state.names[type]) { found += state.positions[type] }
    }
    if state.names.count <= Self.linearLimit {
      for type in state.names.indices { consider(type) }
    } else {
      var candidates = Set<Int>()
      candidates.formUnion(state.byFolded[wanted.folded] ?? [])
      candidates.formUnion(state.byShort[wanted.short] ?? [])
      if let word = wanted.lastWord, word.count >= 4 {
        candidates.formUnion(state.byLastWord[word] ?? [])
      }
      for type in candidates { consider(type) }
    }
    return found.sorted()
  }

  private func built() -> State {
    state.withLock { state in
      if let state { return state }
      var made = State()
      var distinct: [ObjectIdentifier: Int] = [:]
      for (position, type) in types.enumerated() {
        if let known = distinct[ObjectIdentifier(type)] {
          made.positions[known].append(position)
          continue
        }
        let index = made.names.count
        distinct[ObjectIdentifier(type)] = index
        let name = SimilarName(type)
        made.names.append(name)
        made.positions.append([position])
        made.byFolded[name.folded, default: []].append(index)
        made.byShort[name.short, default: []].append(index)
        if let word = name.lastWord, word.count >= 4 {
          made.byLastWord[word, default: []].append(index)
        }
      }
      state = made
      return made
    }
  }
}
