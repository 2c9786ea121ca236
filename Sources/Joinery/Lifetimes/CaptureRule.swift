/// Which lifetime may hold which: the one rule that the build-time captive check and the
/// resolve-time one both derive from.
///
/// Two facts per lifetime decide it:
/// - **Reach**, where one instance is shared: by the whole container (persistent, cached,
///   transient), by one scope (scoped), by one resolution (graph), or by nobody (ephemeral).
/// - **Endurance**, among container-wide lifetimes, how long one instance is kept: persistent
///   (the container's life) outlasts cached (until its group is reset), which outlasts transient
///   (while someone holds it).
///
/// A consumer *captures* a dependency when it keeps the dependency's instance beyond what the
/// dependency's lifetime promises:
///
/// | consumer ↓ / dependency → | scoped | cached | transient |
/// |---|---|---|---|
/// | persistent | error | error | error |
/// | cached | error | warning (another group) | warning |
/// | transient | error | – | – |
///
/// A scoped dependency of a container-wide consumer is always an error: one request's instance
/// would serve every request. A persistent consumer's capture is always an error; a cached one's,
/// short of a scope, only a warning, since a reset ends both.
///
/// Ephemeral and graph instances are made for their consumer and are never captives: a
/// container-wide consumer that keeps a graph instance keeps what an ephemeral one would give
/// it, one instance of its own (Swinject's default `.graph` under `.container` singletons). A
/// consumer keeps what *they* depend on, so the build-time check follows chains through them
/// ("see-through"). That several long-lived consumers each keep their own instance of one is
/// worth a warning, once, which ``CaptiveDependencyValidator`` gives.
extension Lifetime {
  /// Where one instance is shared.
  enum Reach: Comparable {
    case none, resolution, scope, container
  }

  var reach: Reach { strategy.reach }

  /// Among container-wide lifetimes, how long one instance is kept (higher is longer).
  var endurance: Int { strategy.endurance }

  /// Whether a consumer keeps what an instance of this lifetime depends on: the instance is
  /// made for the consumer alone (or for its one resolution).
  var isSeeThrough: Bool { reach < .scope }

  /// How bad it is for an instance of `consumer` to keep one of this lifetime, or `nil` if it
  /// is fine.
  ///
  /// Derived from each lifetime's ``LifetimeStrategy`` facts, not from which lifetimes they
  /// are: a new lifetime takes its place in the table by its reach and endurance.
  func capture(by consumer: Lifetime) -> Diagnostic.Level? {
    guard consumer.reach == .container else { return nil }
    let captured: Bool
    switch reach {
    case .none, .resolution: return nil
    case .scope: return .error
    case .container:
      captured =
        endurance < consumer.endurance
        || (group != nil && consumer.group != nil && group != consumer.group)
    }
    guard captured else { return nil }
    return consumer.strategy.captureSeverity
  }
}

extension ResolutionContext {
  /// Throws if an instance being created in this chain would keep one of `binding` too long.
  ///
  /// "Too long" is what ``Lifetime/capture(by:)`` calls an error, unless the pair is
  /// acknowledged with `allowCaptive`. Called when a scoped instance is requested and when a
  /// cached or transient one is created (not for graph instances, whose capture `build()`
  /// reports from declared edges); it walks the chain only while this thread creates a
  /// container-wide instance (``ResolutionContext/captor``).
  @inline(__always)
  func checkCapture(
    of binding: AnyBinding, fallbackTag: RequestedTag?, in container: Container
  ) throws(ResolutionError) {
    guard let captor else { return }
    try binding.checkCapture(by: captor, fallbackTag: fallbackTag, parent: self, in: container)
  }

}

extension AnyBinding {
  /// Throws if `captor`, being created above `parent`, would keep this binding's instance too
  /// long: the one check both engines make.
  @inline(never)
  func checkCapture(
    by captor: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) throws(ResolutionError) {
    guard lifetime.capture(by: captor.lifetime) == .error,
      !container.allowsCaptive(consumer: captor.key, dependency: key)
    else { return }
    throw .captive(self, by: captor, fallbackTag: fallbackTag, parent: parent, in: container)
  }
}

extension AsyncPath {
  /// Throws if an instance being created on this path would keep one of `binding` too long:
  /// ``ResolutionContext/checkCapture(of:fallbackTag:in:)`` for an async request, for the same
  /// lifetimes (scoped, and the container-wide ones; a `graph` capture is `build()`'s to find).
  func checkCapture(of binding: AnyBinding, in container: Container) throws(ResolutionError) {
    guard hasCaptor, binding.lifetime.reach >= .scope, let captor else { return }
    try binding.checkCapture(by: captor, fallbackTag: nil, parent: self, in: container)
  }
}
