/// How long an instance made by a binding lives, and who shares it.
///
/// | Joinery | one instance… | `dispose:` runs at | Swinject | Factory |
/// |---|---|---|---|---|
/// | ``persistent`` | per container, built once | ``Container/shutdown()`` | `.container` | `.singleton` |
/// | ``transient`` | while anyone outside holds it (weak) | — (not kept) | `.weak` | `.shared` |
/// | ``ephemeral`` | per resolve, never kept | — (not kept) | `.transient` | `.unique` |
/// | ``cached`` | per container until its ``CacheGroup`` is reset | the reset, or shutdown | — | `.cached` |
/// | ``graph`` | per top-level resolve, shared inside it | — (not kept) | `.graph` | `.graph` |
/// | ``scoped`` | per ``Scope`` (a request, a unit of work) | ``Scope/close()`` | — | `.scope` |
///
/// > Important: In Joinery **transient means weak-shared**. Swinject and .NET use "transient" for
/// > *new every time*; that lifetime is ``ephemeral`` here.
///
/// ```swift
/// registrar.bind(Database.self, lifetime: .persistent) { SQLiteDatabase() }
/// registrar.bind(ImageCache.self, lifetime: .transient) { ImageCache() }
/// registrar.bind(Session.self, lifetime: .cached(in: .session)) { Session() }
/// ```
///
/// `Lifetime` is a struct with static members rather than an enum, so new lifetimes can be added
/// without breaking a `switch` in your code.
public struct Lifetime: Hashable, Sendable, CustomStringConvertible {
  /// What the lifetime does: its kind (one internal class per lifetime) and parameters, in a
  /// ``LifetimeStrategy``, compared by both.
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

  /// One instance per container, created on first resolve, exactly once even when many threads
  /// ask at the same moment.
  public static let persistent = Lifetime(LifetimeStrategy(PersistentLifetime.self))

  /// One instance per container; when `eager` is `true`, `build()` creates it and reports its
  /// errors.
  ///
  /// ```swift
  /// registrar.bind(Config.self, lifetime: .persistent(eager: true)) { try Config.load() }
  /// ```
  ///
  /// - Parameter eager: Whether `build()` creates the instance.
  /// - Returns: A persistent lifetime.
  public static func persistent(eager: Bool) -> Lifetime {
    eager ? Lifetime(LifetimeStrategy(PersistentLifetime.self, eager: true)) : .persistent
  }

  /// Weak sharing: the same instance while anyone outside the container holds it, a new one after
  /// it is released.
  ///
  /// Only classes (or protocols implemented by classes) can be weak.
  public static let transient = Lifetime(LifetimeStrategy(TransientLifetime.self))

  /// A new instance on every resolve, never retained by the container.
  public static let ephemeral = Lifetime(LifetimeStrategy(EphemeralLifetime.self))

  /// Like ``persistent``, but dropped when the ``CacheGroup/default`` group is reset.
  public static let cached = Lifetime(LifetimeStrategy(CachedLifetime.self, group: .default))

  /// Like ``persistent``, but dropped when `group` is reset with ``Container/reset(_:)``.
  ///
  /// ```swift
  /// registrar.bind(Session.self, lifetime: .cached(in: .session)) { Session() }
  /// ```
  ///
  /// - Parameter group: The group the instance belongs to.
  /// - Returns: A cached lifetime.
  public static func cached(in group: CacheGroup) -> Lifetime {
    group == .default ? .cached : Lifetime(LifetimeStrategy(CachedLifetime.self, group: group))
  }

  /// One instance per top-level resolve: everything built during that one resolution shares it
  /// (diamonds), and the next resolve makes a new one.
  ///
  /// The container keeps nothing afterwards.
  public static let graph = Lifetime(LifetimeStrategy(GraphLifetime.self))

  /// One instance per ``Scope``: everything resolved in one scope (one request, one unit of
  /// work) shares it, and ``Scope/close()`` ends it.
  ///
  /// Resolving a scoped binding outside a scope
  /// is an error, and a persistent, cached or transient binding that depends on a scoped one
  /// fails `build()` (it would keep one scope's instance for every scope).
  ///
  /// ```swift
  /// registrar.bind(UnitOfWork.self, lifetime: .scoped, dispose: { try await $0.rollBack() },
  ///   to: UnitOfWork.init(pool:))
  /// let scope = container.makeScope()
  /// let work = try scope.resolve(UnitOfWork.self)
  /// try await scope.close()
  /// ```
  public static let scoped = Lifetime(LifetimeStrategy(ScopedLifetime.self))

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
  /// // error: static property 'persistent' requires that 'Tally' conform to 'Sendable'
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

    /// A new instance for every request.
    public static var ephemeral: Self { Self(value: .ephemeral) }

    /// One instance per top-level resolution, shared by everything built during it.
    public static var graph: Self { Self(value: .graph) }

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
    @usableFromInline var explicit: Lifetime? { inheritsDefault ? nil : value }
  }
}

// The lifetimes are declared here and on `Lifetime` both, on purpose. Declaring them once, in
// the extensions of a protocol both types conform to (an associated type carrying `Instance`
// for the `Sendable` condition; a conditional conformance cannot depend on a marker protocol),
// was tried in 57ecaa7 and reverted: in unspecialized code — a generic helper binding many
// types — every `lifetime: .persistent` then looked up the witness table of `For<T>` at run
// time, +17 % instructions on the 1,000-binding build row.
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

  /// One instance per container, created on first use.
  public static var persistent: Self { Self(value: .persistent) }

  /// One instance per container, created by `build()` when `eager` is `true`.
  ///
  /// - Parameter eager: Whether `build()` creates the instance.
  /// - Returns: The lifetime.
  public static func persistent(eager: Bool) -> Self { Self(value: .persistent(eager: eager)) }

  /// Weak sharing: the same instance while someone holds it, a new one afterwards.
  public static var transient: Self { Self(value: .transient) }

  /// Kept until the default cache group is reset.
  public static var cached: Self { Self(value: .cached) }

  /// Kept until `group` is reset.
  ///
  /// - Parameter group: The cache group.
  /// - Returns: The lifetime.
  public static func cached(in group: CacheGroup) -> Self { Self(value: .cached(in: group)) }

  /// One instance per ``Scope``, shared by everything resolved in it.
  public static var scoped: Self { Self(value: .scoped) }
}
