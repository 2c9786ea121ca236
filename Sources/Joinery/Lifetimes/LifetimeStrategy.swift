public import JoineryEngine

/// What one lifetime does: how an instance is found or made for a request, sync and async, and
/// the facts the build-time checks derive from.
///
/// A ``Lifetime`` is a value around one of these. Each lifetime is one subclass in a file of its
/// own in `Lifetimes/Strategies/`, holding both engines' code for it: the synchronous
/// ``resolve(_:into:in:parent:fallbackTag:)`` a ``FactoryBinding`` calls and the
/// ``resolveAsync(_:node:resolver:path:in:)`` an ``AsyncBinding`` calls (class methods; the
/// instance's properties are the lifetime's facts, which may depend on its parameters). Nothing else in the
/// module matches on which lifetime a binding has: it asks the strategy.
///
/// Adding a lifetime (say `.pooled(size:)`) is:
/// 1. a new file with a subclass overriding the requirements below;
/// 2. its public static member on ``Lifetime`` (and on ``Lifetime/For`` where the binding
///    functions should offer it);
/// 3. its row in the `Lifetime` documentation table and in the lifetime tests.
///
/// The captive rules (``Lifetime/capture(by:)``) follow from ``reach``, ``endurance`` and
/// ``captureSeverity``.
///
/// Instances are immutable after `init`, hence `@unchecked Sendable`.
@usableFromInline
class LifetimeStrategy: @unchecked Sendable {
  /// The lifetime's name, as ``Lifetime/description`` gives it.
  var name: String { preconditionFailure("\(Self.self) must override name") }

  /// Where one instance is shared.
  var reach: Lifetime.Reach { preconditionFailure("\(Self.self) must override reach") }

  /// Among container-wide lifetimes, how long one instance is kept (higher is longer); 0 for
  /// the others.
  var endurance: Int { 0 }

  /// Whether a made instance is kept for the container's whole life, never changing: a
  /// forward may keep its conversion, and no consumer outranks it as a captor.
  var isPermanent: Bool { false }

  /// Whether `build()` makes the instance (an eager persistent).
  var isEager: Bool { false }

  /// The cache group that ends the instance, for a lifetime that has one.
  var cacheGroup: CacheGroup? { nil }

  /// Whether the container keeps a strong reference to the instance between resolves.
  var retainsInstance: Bool { false }

  /// Whether the instance is shared only while someone outside holds it (weakly): only a
  /// class instance can be.
  var sharesWeakly: Bool { false }

  /// How bad it is when an instance of this lifetime keeps a dependency too long.
  var captureSeverity: Diagnostic.Level { .warning }

  /// Whether a ``FactoryBinding`` of this lifetime needs a ``LifetimeCell``.
  var usesCell: Bool { false }

  /// The lifetime's parameters (a cached lifetime's group, whether a persistent one is
  /// eager), which with its type make its identity; `nil` for a lifetime without any.
  var parameters: AnyHashable? { nil }

  /// Whether `other` is the same lifetime with the same parameters.
  final func isEqual(to other: LifetimeStrategy) -> Bool {
    type(of: self) == type(of: other) && parameters == other.parameters
  }

  final func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: self)))
    hasher.combine(parameters)
  }

  // MARK: The synchronous engine

  // The engines' entry points are class methods, called on the strategy's type, which a
  // binding keeps (``AnyBinding/strategyType``): a metatype is not reference-counted, so a
  // resolve retains nothing to reach its lifetime's code.

  /// Writes the instance for one request of `binding` into `out`.
  @usableFromInline
  class func resolve(
    _ binding: FactoryBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    preconditionFailure("\(Self.self) must override resolve")
  }

  /// Whether `binding` holds a shared instance now (``Container/hasInstance(of:tag:)``).
  class func holdsInstance(_ binding: FactoryBinding) -> Bool { binding.isReady }

  // MARK: The asynchronous engine

  /// The instance for one request of `binding`, whose factory runs as `node` (with
  /// `resolver`) below `path`; `nil` when a creation this request awaited was abandoned by a
  /// cancelled request, and the request must start over.
  class func resolveAsync(
    _ binding: AsyncBinding, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    preconditionFailure("\(Self.self) must override resolveAsync")
  }
}
