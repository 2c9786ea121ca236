/// The frozen lookup table: type identity → the bindings of that type.
///
/// Built once by `build()` and never changed, so it is read without any lock. Open addressing
/// with linear probing over the bits of `ObjectIdentifier`, at most half full.
struct BindingTable: Sendable {
  private let identities: ContiguousArray<UInt>
  private let slots: ContiguousArray<TypeEntry?>
  private let mask: Int

  init(_ bindings: [AnyBinding]) {
    var grouped: [ObjectIdentifier: [AnyBinding]] = [:]
    for binding in bindings {
      grouped[ObjectIdentifier(binding.key.type), default: []].append(binding)
    }
    var capacity = 8
    while capacity < grouped.count * 2 { capacity *= 2 }
    var identities = ContiguousArray<UInt>(repeating: 0, count: capacity)
    var slots = ContiguousArray<TypeEntry?>(repeating: nil, count: capacity)
    let mask = capacity - 1
    for (identity, group) in grouped {
      var index = Self.home(of: identity, mask: mask)
      while identities[index] != 0 { index = (index + 1) & mask }
      identities[index] = UInt(bitPattern: identity.address)
      slots[index] = TypeEntry(group)
    }
    self.identities = identities
    self.slots = slots
    self.mask = mask
  }

  @inline(__always)
  private static func home(of identity: ObjectIdentifier, mask: Int) -> Int {
    // Metadata addresses are aligned; Fibonacci hashing spreads the remaining bits.
    let bits = UInt(bitPattern: identity.address) &>> 3
    return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) &>> 32) & mask
  }

  /// The bindings of one type, or `nil` if the type is not bound at all.
  @inline(__always)
  func entry(for identity: ObjectIdentifier) -> TypeEntry? {
    let wanted = UInt(bitPattern: identity.address)
    var index = Self.home(of: identity, mask: mask)
    return identities.withUnsafeBufferPointer { identities in
      while true {
        let found = identities[index]
        if found == wanted { return slots[index] }
        if found == 0 { return nil }
        index = (index + 1) & mask
      }
    }
  }

  /// The binding stored under exactly `key`.
  func binding(for key: BindingKey) -> AnyBinding? {
    guard let entry = entry(for: ObjectIdentifier(key.type)) else { return nil }
    if key.argumentTypes != nil {
      return entry.withArguments.first { $0.key == key }
    }
    guard let tag = key.tag else { return entry.untagged }
    return entry.tagged[tag]
  }
}

extension ObjectIdentifier {
  /// The address the identifier wraps.
  fileprivate var address: Int { unsafeBitCast(self, to: Int.self) }
}

/// Every binding of one type.
final class TypeEntry: Sendable {
  let untagged: AnyBinding?
  let tagged: [BindingTag: AnyBinding]
  /// Bindings that take runtime arguments, any tag, in key order.
  let withArguments: [AnyBinding]

  init(_ bindings: [AnyBinding]) {
    var untagged: AnyBinding?
    var tagged: [BindingTag: AnyBinding] = [:]
    var withArguments: [AnyBinding] = []
    for binding in bindings {
      if binding.key.argumentTypes != nil {
        withArguments.append(binding)
      } else if let tag = binding.key.tag {
        tagged[tag] = binding
      } else {
        untagged = binding
      }
    }
    self.untagged = untagged
    self.tagged = tagged
    self.withArguments =
      withArguments.count < 2
      ? withArguments : withArguments.sorted { $0.key.sortKey < $1.key.sortKey }
  }

  /// The binding for a tag, falling back to the untagged one when allowed.
  @inline(__always)
  func binding(tag: BindingTag, allowsFallback: Bool) -> (binding: AnyBinding, fellBack: Bool)? {
    if let binding = tagged[tag] { return (binding, false) }
    if allowsFallback, let untagged { return (untagged, true) }
    return nil
  }

  /// The argument binding for a tag and argument tuple type, falling back to the untagged one.
  func argumentBinding(
    tag: BindingTag?, signature: ObjectIdentifier, allowsFallback: Bool
  ) -> (binding: AnyBinding, fellBack: Bool)? {
    func matches(_ binding: AnyBinding, _ tag: BindingTag?) -> Bool {
      binding.key.tag == tag && binding.key.argumentTypes.map(ObjectIdentifier.init) == signature
    }
    if let found = withArguments.first(where: { matches($0, tag) }) { return (found, false) }
    if tag != nil, allowsFallback, let found = withArguments.first(where: { matches($0, nil) }) {
      return (found, true)
    }
    return nil
  }

  var allBindings: [AnyBinding] {
    (untagged.map { [$0] } ?? []) + tagged.values.sorted { $0.key.sortKey < $1.key.sortKey }
      + withArguments
  }
}
