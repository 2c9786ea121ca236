internal import JoineryEngine

/// Bindings grouped by type identity in linear time, without a dictionary: open addressing over
/// the type's address, chaining the bindings of a group through `next`.
struct TypeGroups {
  /// The position of the first binding of each group, in the order groups were first seen.
  private(set) var starts: [Int] = []
  /// The position of the next binding of the same type, or -1.
  private var next: [Int]

  init(_ bindings: [AnyBinding]) {
    next = [Int](repeating: -1, count: bindings.count)
    var capacity = 8
    while capacity < bindings.count * 2 { capacity *= 2 }
    let mask = capacity - 1
    var identities = [UInt](repeating: 0, count: capacity)
    var tails = [Int](repeating: -1, count: capacity)
    for (position, binding) in bindings.enumerated() {
      let identity = UInt(bitPattern: ObjectIdentifier(binding.key.type))
      var index = _IdentityTable.home(of: identity, mask: mask)
      while identities[index] != 0 && identities[index] != identity { index = (index + 1) & mask }
      if identities[index] == 0 {
        identities[index] = identity
        starts.append(position)
      } else {
        next[tails[index]] = position
      }
      tails[index] = position
    }
  }

  /// Whether the group that starts at `start` has no other binding: the common case.
  func isAlone(_ start: Int) -> Bool { next[start] < 0 }

  /// The positions of the bindings of the group that starts at `start`, in registration order.
  func members(from start: Int) -> [Int] {
    var members = [start]
    var current = next[start]
    while current >= 0 {
      members.append(current)
      current = next[current]
    }
    return members
  }
}
