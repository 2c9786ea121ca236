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
    return entry.tagged.first { $0.key.tag == tag }
  }
}

extension ObjectIdentifier {
  /// The address the identifier wraps.
  fileprivate var address: Int { unsafeBitCast(self, to: Int.self) }
}

/// Every binding of one type.
final class TypeEntry: Sendable {
  let untagged: AnyBinding?
  /// Tagged bindings, in registration order.
  let tagged: ContiguousArray<AnyBinding>
  /// For types with many tags: tag hash → indices into `tagged`.
  let taggedByHash: [Int: [Int]]?
  /// Bindings that take runtime arguments, any tag, in registration order.
  let withArguments: ContiguousArray<AnyBinding>

  /// Up to this many tags are compared one by one, without hashing the requested tag.
  static let linearTagLimit = 8

  init(_ bindings: [AnyBinding]) {
    var untagged: AnyBinding?
    var tagged: ContiguousArray<AnyBinding> = []
    var withArguments: ContiguousArray<AnyBinding> = []
    for binding in bindings {
      if binding.key.argumentTypes != nil {
        withArguments.append(binding)
      } else if binding.key.tag != nil {
        tagged.append(binding)
      } else {
        untagged = binding
      }
    }
    self.untagged = untagged
    self.tagged = tagged
    self.withArguments = withArguments
    if tagged.count > Self.linearTagLimit {
      var index: [Int: [Int]] = [:]
      for (position, binding) in tagged.enumerated() {
        index[binding.key.tag.unsafelyUnwrapped.box.hash, default: []].append(position)
      }
      taggedByHash = index
    } else {
      taggedByHash = nil
    }
  }

  /// The binding tagged exactly `tag`.
  @inline(__always)
  func binding<Tag: Hashable & Sendable>(tag: Tag) -> AnyBinding? {
    if let taggedByHash {
      let hash = tagHash(tag)
      for position in taggedByHash[hash] ?? []
      where tagged[position].key.tag.unsafelyUnwrapped.matches(tag, hash: hash) {
        return tagged[position]
      }
      return nil
    }
    for binding in tagged where binding.key.tag.unsafelyUnwrapped.matches(tag) {
      return binding
    }
    return nil
  }

  /// The argument binding for a tag and argument tuple type, falling back to the untagged one.
  func argumentBinding<Tag: Hashable & Sendable>(
    tag: Tag?, signature: ObjectIdentifier, allowsFallback: Bool
  ) -> (binding: AnyBinding, fellBack: Bool)? {
    var untagged: AnyBinding?
    for binding in withArguments
    where ObjectIdentifier(binding.key.argumentTypes.unsafelyUnwrapped) == signature {
      switch (binding.key.tag, tag) {
      case (nil, nil): return (binding, false)
      case (nil, _?): untagged = binding
      case (let bound?, let requested?) where bound.matches(requested): return (binding, false)
      default: continue
      }
    }
    if allowsFallback, let untagged { return (untagged, true) }
    return nil
  }

  var allBindings: [AnyBinding] {
    (untagged.map { [$0] } ?? []) + tagged + withArguments
  }
}
