/// One level of a resolution chain: who is being made there (an owner: an object address, such
/// as a binding's), how deep, and what the cycle test needs from the levels above, in four words.
///
/// The synchronous resolver keeps its links in frames on the resolving thread's stack, the async
/// one in heap nodes that survive suspensions; both test cycles, depth and the stack the same
/// way, through ``admit(_:maximumDepth:stackLimit:contains:)``, at constant work per level
/// whatever the depth.
///
/// The cycle test compares with every level of the first ``fullCheckDepth``; deeper, with the
/// owner at the last power-of-two depth (Brent's method), which finds any cycle that keeps
/// repeating within a few of its own lengths. A one-word Bloom filter over the owners
/// (``members``) skips the test in the common case; the whole chain is walked only when the
/// filter cannot rule the owner out, and to report an error.
@safe
@usableFromInline package struct _ChainLink {
  /// What is being made at this level.
  @usableFromInline package let owner: _Owner
  /// 1 for the first level of a resolution; 0 for a marker that is not part of any chain.
  @usableFromInline package let depth: Int
  /// The owner at the deepest power-of-two depth of the chain so far, from depth
  /// ``fullCheckDepth`` on.
  @usableFromInline let checkpoint: _Owner?
  /// One bit per owner of the chain down to this level: an owner whose bit is clear is certainly
  /// not in it.
  @usableFromInline let members: UInt64

  /// The first level of a chain (`depth` 1), or a depth-0 marker that no test sees.
  @inlinable @inline(__always)
  package init(first owner: _Owner, depth: Int = 1) {
    self.owner = owner
    self.depth = depth
    checkpoint = nil
    members = depth > 0 ? Self.memberBit(owner) : 0
  }

  /// The level of `owner` below `parent`.
  @inlinable @inline(__always)
  package init(_ owner: _Owner, below parent: _ChainLink) {
    self.owner = owner
    let depth = parent.depth + 1
    self.depth = depth
    checkpoint =
      depth >= Self.fullCheckDepth && depth & (depth - 1) == 0 ? owner : parent.checkpoint
    members = parent.members | Self.memberBit(owner)
    #if JOINERY_INTERNAL_CHECKS
      _checkInvariants(below: parent)
    #endif
  }

  /// Levels up to which every level is compared in the cycle test.
  @inlinable
  package static var fullCheckDepth: Int { 16 }

  /// The bit of `owner` in the filter.
  @inlinable @inline(__always)
  package static func memberBit(_ owner: _Owner) -> UInt64 {
    // Objects are 16-byte aligned; the next six bits of the address pick the bit.
    1 &<< ((owner.bits &>> 4) & 63)
  }

  /// Whether `owner` may be in the chain down to this level: `false` is certain.
  @inlinable @inline(__always)
  package func mayContain(_ owner: _Owner) -> Bool {
    members & Self.memberBit(owner) != 0
  }

  /// What entering a level of `owner` below this one would meet.
  @usableFromInline package enum Verdict: Equatable {
    /// Nothing: the level may be entered.
    case clear
    /// `owner` is already being made in the chain.
    case cycle
    /// The chain would pass `maximumDepth`, or the thread's stack is nearly used up
    /// (`stackExhausted`), and `owner` is not in it.
    case tooDeep(stackExhausted: Bool)
  }

  /// Whether a level of `owner` may be entered below this one: constant work per level.
  ///
  /// `stackLimit`: the lowest stack address the resolution may reach, 0 when it has none yet
  /// (read then, once per resolution, from ``_ThreadState/stackLimit(from:)``); `nil` for a
  /// chain that does not live on a thread's stack. `contains`: walks the chain from this level
  /// up and says whether `owner` is in it, called only when the filter cannot rule it out.
  @inlinable @inline(__always)
  package func admit(
    _ owner: _Owner, maximumDepth: Int, stackLimit: UnsafeMutablePointer<UInt>?,
    contains: (_Owner) -> Bool
  ) -> Verdict {
    let depth = self.depth + 1
    var stackExhausted = false
    if let stackLimit = unsafe stackLimit {
      let position = _ThreadState.stackPosition
      if unsafe stackLimit.pointee == 0 {
        unsafe stackLimit.pointee = _ThreadState.stackLimit(from: position)
      }
      stackExhausted = unsafe position < stackLimit.pointee
    }
    if depth > maximumDepth || stackExhausted {
      // A deep cycle the checkpoint has not met yet is still a cycle.
      return contains(owner) ? .cycle : .tooDeep(stackExhausted: depth <= maximumDepth)
    }
    guard mayContain(owner) else { return .clear }
    if depth <= Self.fullCheckDepth {
      return contains(owner) ? .cycle : .clear
    }
    return checkpoint == owner ? .cycle : .clear
  }

  /// Whether a level of `owner` may be entered below this one, in a chain that does not live on
  /// a thread's stack (the async one): ``admit(_:maximumDepth:stackLimit:contains:)`` without
  /// the stack test.
  @inlinable @inline(__always)
  package func admit(
    _ owner: _Owner, maximumDepth: Int, contains: (_Owner) -> Bool
  ) -> Verdict {
    unsafe admit(owner, maximumDepth: maximumDepth, stackLimit: nil, contains: contains)
  }

  /// Whether `owner` is in the chain that `start` ends, walking up with `parent`: the full walk,
  /// for errors and the first levels' cycle test.
  @inlinable
  package static func chain<Node: ~Copyable>(
    from start: borrowing Node, contains owner: _Owner, link: (borrowing Node) -> _ChainLink,
    parent: (borrowing Node) -> Node?
  ) -> Bool {
    if link(start).owner == owner { return true }
    var current = parent(start)
    while true {
      switch consume current {
      case .none:
        return false
      case .some(let node):
        if link(node).owner == owner { return true }
        current = parent(node)
      }
    }
  }

  /// Checks the contract (see ``_internalCheck(_:_:file:line:)``) of this level against the
  /// one above it.
  ///
  /// One deeper, every owner's bit of the chain above in its filter, its own too, and its
  /// checkpoint the parent's or itself at a power-of-two depth. Every level is checked as it is
  /// made, under internal checks.
  @inlinable
  package func _checkInvariants(below parent: _ChainLink) {
    _internalCheck(depth == parent.depth + 1, "depth \(depth) below \(parent.depth)")
    _internalCheck(members & parent.members == parent.members, "the filter lost an owner above")
    _internalCheck(mayContain(owner), "the filter misses its own owner")
    _internalCheck(
      checkpoint == parent.checkpoint
        || (checkpoint == owner && depth >= Self.fullCheckDepth && depth & (depth - 1) == 0),
      "checkpoint at depth \(depth)")
  }
}
