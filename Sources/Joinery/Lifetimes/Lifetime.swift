/// How long an instance made by a binding lives, and who shares it.
///
/// | Joinery | one instance… | Swinject | Factory |
/// |---|---|---|---|
/// | ``LifetimeRepresentable/persistent`` | per container, built once | `.container` | `.singleton` |
/// | ``LifetimeRepresentable/transient`` | while anyone outside holds it (weak) | `.weak` | `.shared` |
/// | ``LifetimeRepresentable/ephemeral`` | per resolve, never kept | `.transient` | `.unique` |
/// | ``LifetimeRepresentable/cached`` | per container until its ``CacheGroup`` is reset | — | `.cached` |
/// | ``LifetimeRepresentable/graph`` | per top-level resolve, shared inside it | `.graph` | `.graph` |
/// | ``LifetimeRepresentable/scoped`` | per ``Scope`` (a request, a unit of work) | — | `.scope` |
///
/// > Important: In Joinery **transient means weak-shared**. Swinject and .NET use "transient" for
/// > *new every time*; that lifetime is ``LifetimeRepresentable/ephemeral`` here.
///
/// ```swift
/// registrar.bind(Database.self, lifetime: .persistent) { SQLiteDatabase() }
/// registrar.bind(ImageCache.self, lifetime: .transient) { ImageCache() }
/// registrar.bind(Session.self, lifetime: .cached(in: .session)) { Session() }
/// ```
///
/// `Lifetime` is a struct with static members rather than an enum, so new lifetimes can be added
/// without breaking a `switch` in your code. Each lifetime is declared once, on
/// ``LifetimeRepresentable``, for a `Lifetime` and for the ``Lifetime/For`` a `bind` takes.
public struct Lifetime: Hashable, Sendable, CustomStringConvertible {
  /// What the lifetime does: one internal class per lifetime (``LifetimeStrategy``), compared
  /// by kind and parameters.
  private let identity: Identity

  var strategy: LifetimeStrategy { identity.strategy }

  init(_ strategy: LifetimeStrategy) { identity = Identity(strategy: strategy) }

  /// A strategy as a value: equal when the strategies are the same lifetime with the same
  /// parameters, so that `Lifetime`'s equality and hashing stay the synthesized ones.
  private struct Identity: Hashable, Sendable {
    let strategy: LifetimeStrategy

    static func == (lhs: Identity, rhs: Identity) -> Bool {
      lhs.strategy === rhs.strategy || lhs.strategy.isEqual(to: rhs.strategy)
    }

    func hash(into hasher: inout Hasher) { strategy.hash(into: &hasher) }
  }

  // The lifetimes themselves are declared once, for `Lifetime` and `Lifetime.For` alike, in
  // the extensions of `LifetimeRepresentable` below. These are their values, made once.
  @usableFromInline static let persistentValue = Lifetime(PersistentLifetime(eager: false))
  @usableFromInline static let eagerPersistentValue = Lifetime(PersistentLifetime(eager: true))
  @usableFromInline static let transientValue = Lifetime(TransientLifetime())
  @usableFromInline static let ephemeralValue = Lifetime(EphemeralLifetime())
  @usableFromInline static let cachedValue = Lifetime(CachedLifetime(group: .default))
  @usableFromInline static let graphValue = Lifetime(GraphLifetime())
  @usableFromInline static let scopedValue = Lifetime(ScopedLifetime())

  @usableFromInline static func cachedValue(in group: CacheGroup) -> Lifetime {
    group == .default ? cachedValue : Lifetime(CachedLifetime(group: group))
  }

  /// The cache group of a `cached` lifetime.
  var group: CacheGroup? { strategy.cacheGroup }

  /// Whether a persistent instance is created by `build()`.
  var isEager: Bool { strategy.isEager }

  /// Whether the container keeps a strong reference to the instance between resolves.
  var retainsInstance: Bool { strategy.retainsInstance }

  /// A one-line, human-readable description.
  public var description: String { strategy.name }
}

extension Lifetime {
  /// A lifetime for a binding of `Instance`, as the `bind` functions take it: the lifetimes that
  /// share one instance between threads — persistent, cached, transient, scoped (a scope may be
  /// used by several tasks) — exist only when `Instance` is `Sendable`, so the compiler, not a
  /// race at run time, refuses sharing a type that is not.
  ///
  /// Ephemeral and graph instances are never shared between threads by the container and need
  /// no `Sendable`. Main-actor types are `Sendable`.
  ///
  /// ```swift
  /// registrar.bind(Settings.self, lifetime: .persistent, to: Settings.init)  // Settings: Sendable
  /// registrar.bind(Formatter.self, lifetime: .ephemeral, to: Formatter.init)  // any type
  /// // registrar.bind(Tally.self, lifetime: .persistent, …)
  /// // error: type 'Lifetime.For<Tally>._Instance' (aka 'Tally') does not conform to the
  /// //   'Sendable' protocol
  /// ```
  ///
  /// A *default* lifetime — ``DependencyRegister/defaultLifetime``,
  /// ``ContainerBuilder/defaultLifetime`` — applies to bindings of any type, so it is a
  /// `Lifetime.For<Any>`: `Any` is not `Sendable`, which leaves ephemeral and graph (and
  /// ``default``, "the includer's"). A module whose bindings are mostly singletons says
  /// `lifetime: .persistent` at each of them, where the compiler checks the type.
  ///
  /// ```swift
  /// let builder = ContainerBuilder(defaultLifetime: .graph, LegacyAssembly())
  /// ```
  public struct For<Instance>: Sendable {
    @usableFromInline let value: Lifetime
    /// Whether the register's (or builder's) default lifetime applies instead of `value`.
    @usableFromInline let inheritsDefault: Bool

    @usableFromInline init(value: Lifetime, inheritsDefault: Bool = false) {
      self.value = value
      self.inheritsDefault = inheritsDefault
    }

    /// The default lifetime of the register declaring the binding.
    ///
    /// That is the register's ``DependencyRegister/defaultLifetime``, else that of the register
    /// including it, else the builder's ``ContainerBuilder/defaultLifetime``: ephemeral unless
    /// one of them says otherwise. A `bind` without a `lifetime:` argument gets it; as a
    /// register's default it means the includer's (as `nil` does), as the builder's, ephemeral.
    ///
    /// ```swift
    /// struct LegacyAssembly: Assembly {
    ///   var defaultLifetime: Lifetime.For<Any>? { .graph }  // Swinject's default object scope
    ///   func register(in registrar: inout Registrar) {
    ///     registrar.bind(Parent.self, to: Parent.init)  // graph
    ///   }
    /// }
    /// ```
    public static var `default`: Self { Self(value: .ephemeral, inheritsDefault: true) }

    /// The lifetime it names, or `nil` for ``default``.
    var explicit: Lifetime? { inheritsDefault ? nil : value }
  }
}

extension Lifetime.For where Instance: Sendable {
  /// Any lifetime, chosen at run time: every lifetime is open to a `Sendable` type.
  ///
  /// ```swift
  /// let lifetime: Lifetime = configuration.shareClients ? .persistent : .ephemeral
  /// registrar.bind(HTTPClient.self, lifetime: .init(lifetime), to: HTTPClient.init)
  /// ```
  ///
  /// - Parameter lifetime: The lifetime.
  public init(_ lifetime: Lifetime) { self.init(value: lifetime) }
}

extension Lifetime.For: LifetimeRepresentable {
  /// A lifetime for a binding of `Instance`.
  public typealias _Instance = Instance

  /// The lifetime as a binding of `Instance` takes it.
  @inlinable public static func _represent(_ lifetime: Lifetime) -> Self { Self(value: lifetime) }
}

extension Lifetime: LifetimeRepresentable {
  /// Every lifetime is open to a `Lifetime` value: it names the lifetime of any binding.
  public typealias _Instance = any Sendable

  /// The lifetime itself.
  @inlinable public static func _represent(_ lifetime: Lifetime) -> Lifetime { lifetime }
}

/// A value that names a lifetime: a ``Lifetime``, or the ``Lifetime/For`` that a `bind` takes.
///
/// Each lifetime is declared once, here, and is a member of both: `lifetime: .persistent` in a
/// `bind`, `binding.lifetime == .persistent` when inspecting a container.
///
/// The lifetimes that share one instance between threads — persistent, transient, cached and
/// scoped — exist for a `Lifetime.For<Instance>` only when `Instance` is `Sendable`; ephemeral
/// and graph exist for every type.
///
/// ```swift
/// registrar.bind(Settings.self, lifetime: .persistent, to: Settings.init)  // Settings: Sendable
/// let shared = container.bindings.filter { $0.lifetime == .persistent }
/// ```
///
/// Only Joinery's two lifetime types conform.
public protocol LifetimeRepresentable: Sendable {
  /// The type a lifetime is for: `Instance` for a ``Lifetime/For``, any for a ``Lifetime``.
  associatedtype _Instance
  /// The value naming `lifetime`.
  static func _represent(_ lifetime: Lifetime) -> Self
}

extension LifetimeRepresentable {
  /// A new instance on every resolve, never retained by the container.
  ///
  /// ```swift
  /// registrar.bind(Formatter.self, lifetime: .ephemeral, to: Formatter.init)
  /// ```
  @inlinable public static var ephemeral: Self { _represent(Lifetime.ephemeralValue) }

  /// One instance per top-level resolve: everything built during that one resolution shares it
  /// (diamonds), and the next resolve makes a new one.
  ///
  /// The container keeps nothing afterwards.
  ///
  /// ```swift
  /// registrar.bind(Parent.self, lifetime: .graph, to: Parent.init(child:))
  /// ```
  @inlinable public static var graph: Self { _represent(Lifetime.graphValue) }
}

extension LifetimeRepresentable where _Instance: Sendable {
  /// One instance per container, created on first resolve, exactly once even when many threads
  /// ask at the same moment.
  ///
  /// ```swift
  /// registrar.bind(Database.self, lifetime: .persistent) { _ in SQLiteDatabase() }
  /// ```
  @inlinable public static var persistent: Self { _represent(Lifetime.persistentValue) }

  /// One instance per container; when `eager` is `true`, `build()` creates it and reports its
  /// errors.
  ///
  /// ```swift
  /// registrar.bind(Config.self, lifetime: .persistent(eager: true)) { _ in try Config.load() }
  /// ```
  ///
  /// - Parameter eager: Whether `build()` creates the instance.
  /// - Returns: A persistent lifetime.
  @inlinable public static func persistent(eager: Bool) -> Self {
    _represent(eager ? Lifetime.eagerPersistentValue : Lifetime.persistentValue)
  }

  /// Weak sharing: the same instance while anyone outside the container holds it, a new one
  /// after it is released.
  ///
  /// Only classes (or protocols implemented by classes) can be weak.
  ///
  /// ```swift
  /// registrar.bind(ImageCache.self, lifetime: .transient) { _ in ImageCache() }
  /// ```
  @inlinable public static var transient: Self { _represent(Lifetime.transientValue) }

  /// Like ``persistent``, but dropped when the ``CacheGroup/default`` group is reset.
  ///
  /// ```swift
  /// registrar.bind(Basket.self, lifetime: .cached) { _ in Basket() }
  /// ```
  @inlinable public static var cached: Self { _represent(Lifetime.cachedValue) }

  /// Like ``persistent``, but dropped when `group` is reset with ``Container/reset(_:)``.
  ///
  /// ```swift
  /// registrar.bind(Session.self, lifetime: .cached(in: .session)) { _ in Session() }
  /// ```
  ///
  /// - Parameter group: The group the instance belongs to.
  /// - Returns: A cached lifetime.
  @inlinable public static func cached(in group: CacheGroup) -> Self {
    _represent(Lifetime.cachedValue(in: group))
  }

  /// One instance per ``Scope``: everything resolved in one scope (one request, one unit of
  /// work) shares it, and ``Scope/close()`` ends it.
  ///
  /// Resolving a scoped binding outside a scope is an error, and a persistent, cached or
  /// transient binding that depends on a scoped one fails `build()` (it would keep one scope's
  /// instance for every scope).
  ///
  /// ```swift
  /// registrar.bind(UnitOfWork.self, lifetime: .scoped, dispose: { try await $0.rollBack() },
  ///   to: UnitOfWork.init(pool:))
  /// let scope = container.makeScope()
  /// let work = try scope.resolve(UnitOfWork.self)
  /// try await scope.close()
  /// ```
  @inlinable public static var scoped: Self { _represent(Lifetime.scopedValue) }
}
