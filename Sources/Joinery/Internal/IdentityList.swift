/// Values keyed by an object's identity, in the order they were added: searched in order while
/// few, indexed once there are more than ``indexThreshold``, so that finding one costs the same
/// with thousands as with ten.
///
/// What a scope keeps for each scoped binding it used past its first two inline ones
/// (``DisposalList``): most scopes use a handful, some thousands.
struct IdentityList<Value> {
  private var entries: [(id: ObjectIdentifier, value: Value)] = []
  /// The position of each entry, made when the list outgrows an ordered search.
  private var positions: [ObjectIdentifier: Int]?

  /// Entries past which a search in order costs more than a hash.
  static var indexThreshold: Int { 8 }

  /// The position of the value for `id`, if there is one.
  func position(of id: ObjectIdentifier) -> Int? {
    if let positions { return positions[id] }
    return entries.firstIndex { $0.id == id }
  }

  /// Adds `value` for `id`, which has none yet, and returns its position.
  @discardableResult
  mutating func append(_ value: Value, for id: ObjectIdentifier) -> Int {
    let position = entries.count
    entries.append((id, value))
    if positions != nil {
      positions![id] = position
    } else if entries.count > Self.indexThreshold {
      var made: [ObjectIdentifier: Int] = [:]
      made.reserveCapacity(entries.count * 2)
      for (offset, entry) in entries.enumerated() { made[entry.id] = offset }
      positions = made
    }
    return position
  }

  /// The value at `position`, from ``position(of:)`` or ``append(_:for:)``.
  subscript(position: Int) -> Value {
    get { entries[position].value }
    _modify { yield &entries[position].value }
  }
}
