// A tag may be given as an optional: `nil` is no tag, a value is the tag it wraps.

/// The tag an optional stands for: its value (unwrapped again if it is itself optional), or
/// `nil` for no tag.
///
/// A non-optional tag stands for itself.
@usableFromInline package func _flattenedTag<Tag: Hashable & Sendable>(_ tag: Tag) -> (
  any Hashable & Sendable
)? {
  guard let optional = tag as? any _OptionalTag else { return tag }
  // `Tag` is `Optional<Wrapped>`, which is `Sendable` only when `Wrapped` is: the value inside
  // is `Sendable` too. Marker protocols add nothing to an existential's layout.
  guard let value: any Hashable = optional.flattenedTag else { return nil }
  return unsafe _withUnprotectedUnsafePointer(to: value) {
    unsafe $0.withMemoryRebound(to: (any Hashable & Sendable).self, capacity: 1) {
      unsafe $0.pointee
    }
  }
}

/// An optional that can stand for a tag: its innermost value, or `nil`.
@usableFromInline protocol _OptionalTag {
  var flattenedTag: (any Hashable)? { get }
}

extension Optional: _OptionalTag where Wrapped: Hashable {
  @usableFromInline
  var flattenedTag: (any Hashable)? {
    guard let self else { return nil }
    if let inner = self as? any _OptionalTag { return inner.flattenedTag }
    return self
  }
}
