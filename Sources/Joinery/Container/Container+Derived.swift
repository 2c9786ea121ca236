extension Container {
  /// A `Provider` or `Lazy` of a bound type, when `T` is one; `nil` otherwise. Only runs when
  /// `T` itself is not bound.
  @usableFromInline @inline(never)
  func derived<T>(_: T.Type, tag: BindingTag?) -> T? {
    guard let derivable = T.self as? any DerivedFromContainer.Type else { return nil }
    let wrapped = BindingKey(derivable.wrappedType, boxed: tag)
    guard binds(wrapped) || binds(BindingKey(wrapped.type)) else { return nil }
    return derivable.derive(from: self, tag: tag) as? T
  }
}
