extension Container {
  /// Drops the instances of every `cached` binding in `group`; the next resolve of each builds a
  /// new one.
  ///
  /// Persistent instances and other groups are untouched. A resolve running while you reset
  /// returns either the old instance or a complete new one, never a half-built one. The reset
  /// never waits for a running factory: an instance being built during the reset is replaced on
  /// its next resolve.
  ///
  /// The container lets the dropped instances go. Those of bindings with `dispose:` are disposed
  /// in a task of their own, newest first, which ``shutdown()`` waits for; a disposer that throws
  /// is written to standard error. To await the disposal and catch its errors, call
  /// ``close(_:)`` instead.
  ///
  /// ```swift
  /// func logOut() {
  ///   container.reset(.session)
  /// }
  /// ```
  ///
  /// - Parameter group: The group to reset; the default group when omitted.
  public func reset(_ group: CacheGroup = .default) {
    disposals.disposeDetached(drop(group), context: "disposing what reset(\(group)) dropped")
  }

  /// Drops `group`'s cached instances and returns the disposals they owe.
  func drop(_ group: CacheGroup) -> [DisposalList.Entry] {
    guard let state = cacheGroups[group] else { return [] }
    let mark = state.reset(marking: disposals)
    return disposals.take(group: group, upTo: mark)
  }

  /// Puts an instance into a `cached` binding, as if its factory had just made it.
  ///
  /// After login, for example, store the new session so every later resolve gets it, until the
  /// group is reset. With `dispose:`, the stored instance is disposed like one its factory
  /// made (when the group closes, or at ``shutdown()``), and the instance it replaces is
  /// disposed at once, in a task of its own that ``shutdown()`` waits for. Storing the
  /// instance the binding already holds keeps it.
  ///
  /// ```swift
  /// try container.store(Session(user: user), for: Session.self)
  /// try container.store(token, for: Token.self, tag: "refresh")
  /// ```
  ///
  /// - Parameters:
  ///   - instance: The instance to keep.
  ///   - type: The bound type.
  ///   - tag: The binding's tag, if it has one (no fallback: storing targets one binding
  ///     exactly).
  /// - Throws: ``ResolutionError`` with ``ResolutionError/Code/missingBinding`` when nothing is
  ///   bound, or ``ResolutionError/Code/notCached`` when the binding is not `cached`.
  public func store<T: Sendable>(
    _ instance: T, for type: T.Type = T.self, tag: (any Hashable & Sendable)? = nil
  ) throws(ResolutionError) {
    try store(instance, key: BindingKey(T.self, boxed: BindingTag(optional: tag)))
  }

  private func store<T: Sendable>(_ instance: T, key: BindingKey) throws(ResolutionError) {
    try checkOpen(T.self)
    // The binding a resolve of this key would use: this container's or an ancestor's.
    guard let (binding, owner) = lookup(key) else {
      throw .missing(key, triedFallback: false, parent: .topLevel, in: self)
    }
    guard binding.lifetime.group != nil else { throw .notCached(binding, in: owner) }
    // Storing the instance the binding holds again keeps it (and its one disposal).
    let isStored = { (current: Any) in (current as AnyObject) === (instance as AnyObject) }
    if let async = binding.asyncFactory {
      async.store(instance, isStored: isStored, in: owner)
    } else {
      try binding.store(in: owner, isStored: isStored) { $0.initialize(to: instance) }
    }
  }
}
