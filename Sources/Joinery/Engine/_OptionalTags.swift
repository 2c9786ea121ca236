public import JoineryEngine

// A request's `tag:` may be an optional: `nil` is no tag, a value is the tag it wraps.

/// Whether `type` is an `Optional`.
///
/// Not folded in specialized code (Swift 6.3 calls `swift_isOptionalType` even for a concrete
/// `String`), so the hot paths test `Tag.self == BindingTag?.self` first, which does fold.
@inlinable @inline(__always)
func _isOptionalType<T>(_ type: T.Type) -> Bool { _isOptional(type) }

/// The tag of a request whose `tag:` is `tag`: the resolve forms' default, `nil as BindingTag?`,
/// is no tag, and so is any `nil` optional; an optional's value is the tag it wraps.
///
/// The default's test folds away in specialized code: an untagged request pays nothing for it.
@inlinable @inline(__always)
func _requestTag<Tag: Hashable & Sendable>(_ tag: Tag) -> BindingTag? {
  if Tag.self == BindingTag?.self { return _identityCast(tag, to: BindingTag?.self) }
  if _isOptionalType(Tag.self) { return BindingTag(optional: _flattenedTag(tag)) }
  return BindingTag(tag)
}

extension Container {
  /// ``_requestTag(_:)`` for a request of `T`: the box of the binding bound with exactly that
  /// tag when there is one (found without boxing), else a new box.
  ///
  /// An async request passes its tag boxed; boxing it anew would cost every tagged request an
  /// allocation and a release.
  @inlinable @inline(__always)
  func requestTag<T, Tag: Hashable & Sendable>(_ tag: Tag, for _: T.Type) -> BindingTag? {
    if Tag.self == BindingTag?.self || _isOptionalType(Tag.self) { return _requestTag(tag) }
    if let found = match(T.self, tag: tag, matching: .exact),
      let bound = found.binding.read({ $0.key.tag })
    {
      return bound
    }
    return BindingTag(tag)
  }
}

extension Container {
  /// A request whose tag was an optional: untagged for `nil`, else tagged with the value.
  @usableFromInline @inline(never)
  func resolve<T>(
    _ type: T.Type, flattenedTag: (any Hashable & Sendable)?, matching: TagMatching,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    guard let tag = flattenedTag else { return try resolve(T.self, parent: parent) }
    return try resolveOpening(T.self, tag: tag, matching: matching, parent: parent)
  }

  @usableFromInline
  func resolveOpening<T, Tag: Hashable & Sendable>(
    _ type: T.Type, tag: Tag, matching: TagMatching, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    try resolve(T.self, tag: tag, matching: matching, parent: parent)
  }

  @usableFromInline @inline(never)
  func resolveIfBound<T>(
    _ type: T.Type, flattenedTag: (any Hashable & Sendable)?, matching: TagMatching,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T? {
    guard let tag = flattenedTag else { return try resolveIfBound(T.self, parent: parent) }
    return try resolveIfBoundOpening(T.self, tag: tag, matching: matching, parent: parent)
  }

  @usableFromInline
  func resolveIfBoundOpening<T, Tag: Hashable & Sendable>(
    _ type: T.Type, tag: Tag, matching: TagMatching, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T? {
    try resolveIfBound(T.self, tag: tag, matching: matching, parent: parent)
  }

  /// A request with runtime arguments whose tag was an optional: untagged for `nil`, else
  /// tagged with the value.
  @usableFromInline @inline(never)
  func resolve<T, each Argument>(
    _ type: T.Type, flattenedTag: (any Hashable & Sendable)?, matching: TagMatching,
    arguments: repeat each Argument, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    guard let tag = flattenedTag else {
      return try resolve(
        T.self, unflattenedTag: nil as BindingTag?, matching: matching,
        arguments: repeat each arguments, parent: parent)
    }
    return try resolveOpening(
      T.self, tag: tag, matching: matching, arguments: repeat each arguments, parent: parent)
  }

  @usableFromInline
  func resolveOpening<T, Tag: Hashable & Sendable, each Argument>(
    _ type: T.Type, tag: Tag, matching: TagMatching, arguments: repeat each Argument,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    try resolve(
      T.self, unflattenedTag: tag as Tag?, matching: matching, arguments: repeat each arguments,
      parent: parent)
  }
}
