extension Container {
  /// A `Provider` or `Lazy` of a bound type, when `T` is one; `nil` otherwise.
  ///
  /// Only runs when
  /// `T` itself is not bound.
  @usableFromInline @inline(never)
  func derived<T>(
    _: T.Type, tag: BindingTag?, parent: borrowing ResolutionContext
  ) -> T? {
    if T.self == ScopeFactory.self, tag == nil { return ScopeFactory(container: self) as? T }
    guard let derivable = T.self as? any DerivedFromContainer.Type else { return nil }
    let wrapped = BindingKey(derivable.wrappedType, boxed: tag)
    guard binds(wrapped) || binds(BindingKey(wrapped.type)) || bindsWithArguments(wrapped)
    else { return nil }
    let graph = derivable.remembersGraph ? parent.graphMemory() : nil
    // Made in a scope, it resolves in that scope; made for a container-wide instance, in none
    // (it would keep the scope of the request that first made that instance).
    let joined = parent.joined()
    let scope = joined.captor == nil ? joined.scope : nil
    return derivable.derive(from: self, tag: tag, graph: graph, scope: scope) as? T
  }

  /// Whether this container or an ancestor binds `key`'s type and tag with runtime arguments:
  /// a `Provider` of it makes instances with `get(arguments:)`.
  func bindsWithArguments(_ key: BindingKey) -> Bool {
    var current: Container? = self
    while let container = current {
      if container.table.entry(for: ObjectIdentifier(key.type))?.withArguments.contains(where: {
        $0.key.tag == key.tag
      }) == true {
        return true
      }
      current = container.parentContainer
    }
    return false
  }
}
