public import JoineryEngine

extension Container {
  @usableFromInline
  func resolveAll<T>(
    _ type: T.Type, tag: BindingTag?, where predicate: ((BindingInfo) -> Bool)?,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> [T] {
    let found = contributions(
      to: T.self, tag: tag, where: predicate, seenFrom: parent.joined().requestingModule)
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

  /// Every contribution to the multi-binding of `type` (with `tag`) that takes runtime
  /// arguments of exactly the types of `arguments`, a tuple of them, each made with them.
  @usableFromInline
  func resolveAll<T>(
    _ type: T.Type, tag: BindingTag?, signature: Any.Type, arguments: borrowing _Arguments,
    where predicate: ((BindingInfo) -> Bool)?, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> [T] {
    let found = contributions(
      to: T.self, tag: tag, signature: signature, where: predicate,
      seenFrom: parent.joined().requestingModule)
    var instances: [T] = []
    instances.reserveCapacity(found.count)
    for (container, contribution) in found {
      if let recorder { recorder.record(from: parent, to: contribution) }
      // Keyed by these argument types, so declared with them by `contribute`: a factory.
      if contribution.isAsync { continue }
      instances.append(
        try container.makeInstance(
          of: contribution, arguments: arguments, as: T.self, parent, nil))
    }
    return instances
  }

  /// The contributions to the multi-binding of `type` with exactly `tag` (and, if given, the
  /// runtime argument types `signature`), with their containers.
  ///
  /// The root's first, then each child's down to this container; within one, in assembly
  /// order, then registration order. A child whose contributions to the collection override
  /// replaces its ancestors' (as an override does within one build). A private contribution
  /// is seen only from its own module (`module`, the requesting factory's).
  func contributions(
    to type: Any.Type, tag: BindingTag?, signature: Any.Type? = nil,
    where predicate: ((BindingInfo) -> Bool)? = nil, seenFrom module: Module? = nil
  ) -> [(container: Container, binding: AnyBinding)] {
    let wanted = signature.map(ObjectIdentifier.init)
    let found = contributions(to: type) {
      $0.key.tag == tag && $0.key.argumentTypes.map(ObjectIdentifier.init) == wanted
        && (!$0.isPrivate || ($0.module === module && module != nil))
    }
    // After the override rule: a contribution the predicate declines still replaces what it
    // overrides.
    guard let predicate else { return found }
    return found.filter { predicate($0.binding.info) }
  }

  /// ``contributions(to:tag:signature:where:)`` for every tag `includes` accepts, each collection following
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
}
