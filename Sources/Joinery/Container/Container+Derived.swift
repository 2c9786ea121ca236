internal import JoineryEngine

/// What a container makes for a type it does not bind: its scope factory, a reference to it,
/// or a `Provider` or `Lazy` of a type it does bind.
@usableFromInline
struct Derivation {
  /// The wrapper type, or `nil` for the scope factory and the container reference.
  let wrapper: (any DerivedFromContainer.Type)?
  /// For no wrapper, whether it is a ``ContainerReference`` (else a ``ScopeFactory``).
  var isReference = false
  /// The binding the wrapper makes when the requesting module keeps it private (not in the
  /// table, so not found by key later).
  var privateTarget: AnyBinding?
}

extension Container {
  /// How this container makes a `T` it does not bind, if it can; `nil` otherwise.
  ///
  /// Only runs when `T` itself is not bound. Asking first and making after keeps a request for
  /// any other type (a missing binding) from instantiating `T?`'s metadata in unspecialized
  /// code: it pays only the conformance lookup.
  ///
  /// A tagged request that `allowsFallback` is not (`matching: .exact`) is served only when the
  /// wrapped type is bound under that very tag: the provider would otherwise hand out the
  /// untagged instance the request refused.
  @usableFromInline @inline(never)
  func derivation<T>(
    of _: T.Type, tag: BindingTag?, allowsFallback: Bool
  ) -> Derivation? {
    if T.self == ScopeFactory.self { return tag == nil ? Derivation(wrapper: nil) : nil }
    if T.self == ContainerReference.self {
      return tag == nil ? Derivation(wrapper: nil, isReference: true) : nil
    }
    if underivableTypes.contains(T.self) { return nil }
    // Asked of the runtime once per type: a conformance lookup costs about 300 instructions.
    let derivable: any DerivedFromContainer.Type
    if let known = derivableTypes.value(for: T.self) {
      derivable = known
    } else {
      guard let found = T.self as? any DerivedFromContainer.Type else {
        underivableTypes.insert(T.self)
        return nil
      }
      derivableTypes.insert(found, for: T.self)
      derivable = found
    }
    // The untagged binding is asked first, without making a key: it serves most requests.
    guard
      ((tag == nil || allowsFallback) && bindsUntagged(derivable.wrappedType))
        || {
          let wrapped = BindingKey(derivable.wrappedType, boxed: tag)
          return (tag != nil && binds(wrapped)) || bindsWithArguments(wrapped)
        }()
    else { return nil }
    return Derivation(wrapper: derivable)
  }

  /// The `T` that `derivation(of: T.self, tag:)` said this container makes.
  @usableFromInline @inline(never)
  func derive<T>(
    _: T.Type, _ derivation: Derivation, tag: BindingTag?, parent: borrowing ResolutionContext
  ) -> T {
    // Made in a scope, it resolves in that scope; made for a container-wide instance, in none
    // (it would keep the scope of the request that first made that instance).
    let joined = parent.joined()
    let scope = joined.captor == nil ? joined.scope : nil
    guard let derivable = derivation.wrapper else {
      if derivation.isReference {
        return _identical(ContainerReference(container: self, scope: scope), as: T.self)
      }
      return _identical(ScopeFactory(container: self), as: T.self)
    }
    let graph = derivable.remembersGraph ? parent.graphMemory() : nil
    return Self.derived(
      derivable, as: T.self, from: self, tag: tag, graph: graph, scope: scope,
      privateTarget: derivation.privateTarget)
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
