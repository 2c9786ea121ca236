/// The tag a request asked with, when the untagged binding served it (a fallback), kept by
/// reference to the caller's value so that the common path allocates nothing. It becomes a
/// ``BindingTag`` only when an error report needs it.
struct RequestedTag {
  let value: UnsafeRawPointer
  /// The tag's type; always also `Sendable`, as every tag API requires.
  let type: any Hashable.Type

  /// The tag as a value that outlives the request.
  var tag: BindingTag { type.loadTag(from: value) }
}

extension Hashable {
  /// Copies the value at `pointer` into a new tag.
  fileprivate static func loadTag(from pointer: UnsafeRawPointer) -> BindingTag {
    BindingTag(box: TagBox(pointer.load(as: Self.self)))
  }
}
