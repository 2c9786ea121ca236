internal import JoineryEngine

extension Container {
  @usableFromInline
  func resolveAll<T>(
    _ type: T.Type, tag: BindingTag?, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> [T] {
    let found = contributions(to: T.self, tag: tag)
    // One top-level call is one resolution: its contributions share their `graph` instances,
    // as they do when a factory asks.
    guard found.count > 1, hasGraphBindings, parent.startsResolution else {
      return try Self.instances(of: found, as: T.self, parent: parent)
    }
    return try parent.asOneResolution(in: self) { context throws(ResolutionError) -> [T] in
      try Self.instances(of: found, as: T.self, parent: context)
    }
  }

  private static func instances<T>(
    of contributions: [(container: Container, binding: AnyBinding)], as _: T.Type,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> [T] {
    var instances: [T] = []
    instances.reserveCapacity(contributions.count)
    for (container, contribution) in contributions {
      instances.append(
        try container.instance(of: contribution, as: T.self, parent: parent, fallbackTag: nil))
    }
    return instances
  }

  /// The contributions to the multi-binding of `type` with exactly `tag`, with their containers.
  ///
  /// The root's first, then each child's down to this container; within one, in assembly
  /// order, then registration order. A child whose contributions to the collection override
  /// replaces its ancestors' (as an override does within one build).
  func contributions(
    to type: Any.Type, tag: BindingTag?
  ) -> [(container: Container, binding: AnyBinding)] {
    contributions(to: type) { $0.key.tag == tag }
  }

  /// ``contributions(to:tag:)`` for every tag `includes` accepts, each collection following
  /// the override rule on its own.
  func contributions(
    to type: Any.Type, where includes: (AnyBinding) -> Bool
  ) -> [(container: Container, binding: AnyBinding)] {
    var found: [(container: Container, binding: AnyBinding)] = []
    for container in chain.reversed() {
      let own = (container.contributions[ObjectIdentifier(type)] ?? []).filter(includes)
      let overridden = Set(own.lazy.filter(\.isOverride).map(\.key))
      if !overridden.isEmpty { found.removeAll { overridden.contains($0.binding.key) } }
      found += own.map { (container, $0) }
    }
    return found
  }

  /// This container, then each ancestor up to the root.
  var chain: [Container] {
    var chain: [Container] = []
    var current: Container? = self
    while let container = current {
      chain.append(container)
      current = container.parentContainer
    }
    return chain
  }

  /// The keys of the bindings of `type` — ordinary bindings and contributions — that `predicate`
  /// accepts, without creating anything.
  ///
  /// ```swift
  /// let enabled = container.keys(for: Plugin.self) { binding in
  ///   (binding.metadata as? PluginInfo)?.isEnabled == true
  /// }
  /// let plugins = try enabled.map { try container.resolve($0) }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: Only bindings with this tag; all tags when `nil`.
  ///   - predicate: Decides from the binding's description and metadata.
  /// In a child container, the ancestors' bindings count too, as a resolve finds them: an
  /// ordinary binding the child rebinds is listed once, and contributions are those
  /// ``Resolving/resolveAll(_:tag:isolation:)`` returns.
  ///
  /// - Returns: Typed keys, ordinary bindings first (sorted by key), then contributions in order.
  public func keys<T>(
    for type: T.Type = T.self, tag: (any Hashable & Sendable)? = nil,
    where predicate: (BindingInfo) -> Bool = { _ in true }
  ) -> [Key<T>] {
    let tag = BindingTag(optional: tag)
    var ordinary: [BindingKey: AnyBinding] = [:]
    for container in chain {
      let entry = container.table.entry(for: ObjectIdentifier(T.self))
      for binding in (entry?.untagged.map { [$0] } ?? []) + Array(entry?.tagged ?? [])
      where ordinary[binding.key] == nil {
        ordinary[binding.key] = binding
      }
    }
    let sorted = ordinary.values.sorted { $0.key.sortKey < $1.key.sortKey }
    let contributed = contributions(to: T.self) { _ in true }.map(\.binding)
    var found: [Key<T>] = []
    for binding in sorted + contributed
    where (tag == nil || binding.key.tag == tag) && predicate(binding.info) {
      found.append(Key(binding: binding.key, contributionIndex: binding.contributionIndex))
    }
    return found
  }

  /// The keys of the bindings of `type` whose metadata is a `Metadata` that `predicate` accepts.
  ///
  /// ```swift
  /// let spelling = container.keys(for: Plugin.self, metadata: PluginInfo.self) { $0.name == "spell" }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - metadata: The type of the metadata to look at.
  ///   - predicate: Decides from the metadata.
  /// - Returns: Typed keys, in the order of ``keys(for:tag:where:)``.
  public func keys<T, Metadata>(
    for type: T.Type = T.self, metadata: Metadata.Type,
    where predicate: (Metadata) -> Bool
  ) -> [Key<T>] {
    keys(for: T.self) { info in (info.metadata as? Metadata).map(predicate) ?? false }
  }

  /// The instance of the binding `key` names, for a request in `parent`'s chain.
  @usableFromInline
  func resolve<T>(
    _ key: Key<T>, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    if let index = key.contributionIndex {
      guard
        let (owner, contribution) = contributions(to: T.self, where: { _ in true })
          .first(where: { $0.binding.contributionIndex == index })
      else {
        throw .missing(key.binding, triedFallback: false, parent: parent, in: self)
      }
      return try owner.instance(of: contribution, as: T.self, parent: parent, fallbackTag: nil)
    }
    guard let tag = key.binding.tag else { return try resolve(T.self, parent: parent) }
    return try resolve(T.self, tag: tag, matching: .allowingFallback, parent: parent)
  }
}
