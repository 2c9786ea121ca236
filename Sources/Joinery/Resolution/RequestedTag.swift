/// The tag a request asked with, when the untagged binding served it (a fallback), kept by
/// reference to the caller's value so that the common path allocates nothing. It becomes a
/// ``BindingTag`` only when an error report needs it.
@usableFromInline
struct RequestedTag {
  @usableFromInline let value: UnsafeRawPointer
  /// The tag's type; always also `Sendable`, as every tag API requires.
  @usableFromInline let type: any (Hashable & Sendable).Type

  @usableFromInline
  init(value: UnsafeRawPointer, type: any (Hashable & Sendable).Type) {
    self.value = value
    self.type = type
  }

  /// The tag as a value that outlives the request.
  var tag: BindingTag { type.loadTag(from: value) }
}

extension Hashable where Self: Sendable {
  /// Copies the value at `pointer` into a new tag.
  fileprivate static func loadTag(from pointer: UnsafeRawPointer) -> BindingTag {
    BindingTag(box: TagBox(pointer.load(as: Self.self)))
  }
}
