public import JoineryEngine

/// What one lifetime does: how an instance is found or made for a request, sync and async, and
/// the facts the build-time checks derive from.
///
/// A ``Lifetime`` is a value around one of these: the lifetime's kind, a subclass of
/// ``LifetimeKind`` in a file of its own in `Lifetimes/Strategies/`, with the parameters some
/// lifetimes take (whether a persistent one is eager, a cached one's group). Nothing else in
/// the module matches on which lifetime a binding has: it asks the strategy.
///
/// Final and immutable: `Sendable` as the compiler checks it.
@usableFromInline
final class LifetimeStrategy: Sendable {
  /// The lifetime's code and fixed facts.
  let kind: LifetimeKind.Type
  /// Whether `build()` makes the instance (an eager persistent).
  let isEager: Bool
  /// The cache group that ends the instance, for a lifetime that has one.
  let cacheGroup: CacheGroup?
  /// The captive rank (``LifetimeKind/endurance``), read on every async request.
  let endurance: Int

  init(_ kind: LifetimeKind.Type, eager: Bool = false, group: CacheGroup? = nil) {
    self.kind = kind
    isEager = eager
    cacheGroup = group
    endurance = kind.endurance
  }

  /// The lifetime's name, as ``Lifetime/description`` gives it, with its parameters.
  var name: String {
    if isEager { return "\(kind.name)(eager)" }
    if let cacheGroup, cacheGroup != .default { return "\(kind.name)(\(cacheGroup))" }
    return kind.name
  }

  var reach: Lifetime.Reach { kind.reach }
  var isPermanent: Bool { kind.isPermanent }
  var retainsInstance: Bool { kind.retainsInstance }
  var sharesWeakly: Bool { kind.sharesWeakly }
  var captureSeverity: Diagnostic.Level { kind.captureSeverity }
  var usesCell: Bool { kind.usesCell }

  /// Whether `other` is the same lifetime with the same parameters.
  func isEqual(to other: LifetimeStrategy) -> Bool {
    kind == other.kind && isEager == other.isEager && cacheGroup == other.cacheGroup
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(kind))
    hasher.combine(isEager)
    hasher.combine(cacheGroup)
  }
}

/// What a synchronous request of a binding runs (``AnyBinding/resolveKind``): a subclass,
/// never instantiated, whose class method the resolve path calls on the metatype the binding
/// keeps.
///
/// Every lifetime's kind is one (``LifetimeKind``); so are the two bindings that have no
/// synchronous factory: a forward (``Forwarding``) and an async binding (``AsyncOnly``). They
/// are not lifetimes, so they do not subclass ``LifetimeKind``: each of its subclasses is one.
@usableFromInline
class RequestKind {
  /// Writes the instance for one request of `binding` into `out`.
  @usableFromInline
  class func resolve(
    _ binding: AnyBinding, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    preconditionFailure("\(Self.self) must override resolve")
  }
}

/// One lifetime's code and fixed facts: a subclass per lifetime, never instantiated, whose
/// class members the engines call on the metatype a binding keeps
/// (``AnyBinding/strategyType``): a metatype is not reference-counted, so a resolve retains
/// nothing to reach its lifetime's code.
///
/// Each subclass holds both engines' code for its lifetime: the synchronous
/// ``resolve(_:into:in:parent:fallbackTag:)`` a synchronous factory binding calls
/// (``AnyBinding/resolveKind``) and the ``resolveAsync(_:node:resolver:path:in:)`` an async one
/// calls.
///
/// Adding a lifetime (say `.pooled(size:)`) is:
/// 1. a new file with a subclass overriding the requirements below (a parameter, such as a
///    size, joins ``LifetimeStrategy``'s, with its part of the name and of equality);
/// 2. its public static member on ``Lifetime`` (and on ``Lifetime/For`` where the binding
///    functions should offer it);
/// 3. its row in the `Lifetime` documentation table and in the lifetime tests.
///
/// The captive rules (``Lifetime/capture(by:)``) follow from ``reach``, ``endurance`` and
/// ``captureSeverity``.
@usableFromInline
class LifetimeKind: RequestKind {
  /// The lifetime's name, without parameters.
  class var name: String { preconditionFailure("\(Self.self) must override name") }

  /// Where one instance is shared.
  class var reach: Lifetime.Reach { preconditionFailure("\(Self.self) must override reach") }

  /// Among container-wide lifetimes, how long one instance is kept (higher is longer).
  ///
  /// The captive rank, derived from how the lifetime keeps its instance: for the container's
  /// whole life (3), until something drops it (2), only while someone outside holds it (1); 0
  /// for the others.
  static var endurance: Int {
    guard reach == .container else { return 0 }
    if isPermanent { return 3 }
    if retainsInstance { return 2 }
    return sharesWeakly ? 1 : 0
  }

  /// Whether a made instance is kept for the container's whole life, never changing: a
  /// forward may keep its conversion, and no consumer outranks it as a captor.
  class var isPermanent: Bool { false }

  /// Whether the container keeps a strong reference to the instance between resolves.
  class var retainsInstance: Bool { false }

  /// Whether the instance is shared only while someone outside holds it (weakly): only a
  /// class instance can be.
  class var sharesWeakly: Bool { false }

  /// How bad it is when an instance of this lifetime keeps a dependency too long.
  class var captureSeverity: Diagnostic.Level { .warning }

  /// Whether a binding of this lifetime needs a ``LifetimeCell``.
  class var usesCell: Bool { false }

  // MARK: The synchronous engine: `resolve` (``RequestKind``)

  /// Whether `binding` holds a shared instance now (``Container/hasInstance(of:tag:)``).
  class func holdsInstance(_ binding: AnyBinding) -> Bool { binding.isReady }

  // MARK: The asynchronous engine

  /// The instance for one request of `binding`, whose factory runs as `node` (with
  /// `resolver`) below `path`; `nil` when a creation this request awaited was abandoned by a
  /// cancelled request, and the request must start over.
  class func resolveAsync(
    _ binding: AnyBinding, node: AsyncPath, resolver: AsyncResolver, path: AsyncPath?,
    in container: Container
  ) async throws(ResolutionError) -> Any? {
    preconditionFailure("\(Self.self) must override resolveAsync")
  }
}
