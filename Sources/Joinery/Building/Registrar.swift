public import JoineryEngine

/// What an assembly declares its bindings with.
///
/// A registrar is lent to ``DependencyRegister/register(in:)`` and cannot be copied or kept. It
/// only declares: nothing can be resolved until ``ContainerBuilder/build(isolation:)`` has frozen the
/// whole graph.
///
/// ```swift
/// struct FeedAssembly: Assembly {
///   func register(in registrar: inout Registrar) {
///     registrar.bind(FeedService.self, lifetime: .persistent, to: FeedService.init(client:))
///     registrar.bind(Cache.self) { (store: Store) in Cache(store: store, limit: 100) }
///     registrar.bind(FeedServicing.self, forwardingTo: FeedService.self)
///     registrar.bind(Config.self, instance: Config.load())
///   }
/// }
/// ```
///
/// Every `bind` records the file and line of its call, so diagnostics point at it.
public struct Registrar: ~Copyable {
  let collector: BindingCollector
  let registerType: Any.Type
  let isOverriding: Bool
  /// What a binding declared without a `lifetime:` gets (``Lifetime/For/default``).
  let defaultLifetime: Lifetime
  /// The assembly whose boundary this register declares in, if any.
  let module: Module?
  /// For the registrar of ``overriding(_:_:)``, the assembly whose bindings its overrides
  /// replace.
  let overrideTarget: Any.Type?
  /// Whether the binding being declared is `private: true`: set by the declare form, read and
  /// reset by ``keep(_:)``.
  @usableFromInline var declaresPrivately = false
  /// The bindings declared since the last include, handed to the collector in one append
  /// (``flush()``): appending to the collector's array one by one is a dynamically checked
  /// access of a class property each time, and this struct's own array is checked statically.
  private var pending: [AnyBinding] = []

  init(
    collector: BindingCollector, registerType: Any.Type, isOverriding: Bool,
    defaultLifetime: Lifetime, module: Module?, overrideTarget: Any.Type? = nil
  ) {
    self.collector = collector
    self.registerType = registerType
    self.isOverriding = isOverriding
    self.defaultLifetime = defaultLifetime
    self.module = module
    self.overrideTarget = overrideTarget
  }

  /// Keeps a declared binding, in declaration order, in this register's module.
  mutating func keep(_ binding: AnyBinding) {
    binding.module = module
    if declaresPrivately {
      binding.isPrivate = true
      declaresPrivately = false
      collector.hasPrivate = true
    }
    if let overrideTarget {
      binding.overrideTarget = overrideTarget
      collector.hasTargetedOverride = true
    }
    pending.append(binding)
  }

  /// Keeps a contribution to a multi-binding, in this register's module: a private one is seen
  /// only from that module's bindings.
  mutating func keepContribution(_ binding: AnyBinding) {
    binding.module = module
    if declaresPrivately {
      binding.isPrivate = true
      declaresPrivately = false
    }
    collector.contribute(binding)
  }

  /// Hands the kept bindings to the collector: before an include, so that the collector's
  /// order stays declaration order, and when the register is done.
  mutating func flush() {
    guard !pending.isEmpty else { return }
    collector.add(contentsOf: pending)
    pending.removeAll(keepingCapacity: true)
  }

  /// Includes another register; one reached twice (a diamond of modules) registers once.
  ///
  /// Bindings of an included register are overrides when this register was added with
  /// ``ContainerBuilder/overriding(with:)``.
  ///
  /// ```swift
  /// registrar.include(NetworkAssembly())
  /// ```
  ///
  /// - Parameter register: The register to include.
  public mutating func include(_ register: some DependencyRegister) {
    flush()
    collector.collect(
      register, overriding: isOverriding, defaultLifetime: defaultLifetime,
      includer: registerType, module: module)
  }

  /// Binds `type` to a factory that builds it from its dependencies.
  ///
  /// ```swift
  /// registrar.bind(FeedService.self, dependsOn: [BindingKey(HTTPClient.self)]) { resolver in
  ///   FeedService(client: try resolver.resolve())
  /// }
  /// registrar.bind(Logger.self, tag: "audit", dependsOn: []) { _ in FileLogger("audit") }
  /// ```
  ///
  /// A closure taking a resolver is opaque to `build()`: declare what it resolves with
  /// `dependsOn` so the graph is checked. Prefer a closure with typed parameters, or an
  /// initializer (`bind(_:tag:lifetime:arguments:override:private:metadata:dispose:fileID:line:to:)`), which
  /// declare their dependencies themselves:
  ///
  /// ```swift
  /// registrar.bind(FeedService.self) { (client: HTTPClient) in FeedService(client: client) }
  /// ```
  ///
  /// Without either the binding is *unchecked*.
  ///
  /// A factory may take runtime arguments after its resolver, any number of them: every
  /// resolve then makes a new instance from the arguments it passes, of those types in that
  /// order. Such a binding is ephemeral; a `lifetime:` that keeps or shares instances fails the
  /// build.
  ///
  /// ```swift
  /// registrar.bind(Download.self) { (resolver, url: URL, retries: Int) in
  ///   Download(url: url, retries: retries, client: try resolver.resolve())
  /// }
  /// let download = try container.resolve(Download.self, arguments: url, 3)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type resolves ask for, often a protocol.
  ///   - tag: A tag telling this binding apart from others of the same type.
  ///   - lifetime: How long instances live; when omitted, the register's default
  ///     (``Lifetime/For/default``): ephemeral, new every time, unless a register or the builder
  ///     sets another.
  ///   - isOverride: `true` to replace a binding of the same type and tag declared elsewhere.
  ///     Without it, two bindings of one key fail the build.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - dependencies: What the factory resolves, checked by `build()`; `nil` leaves the
  ///     binding unchecked.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: The file of the declaration, captured for diagnostics.
  ///   - line: The line of the declaration, captured for diagnostics.
  ///   - factory: Builds an instance from a resolver, through which it may resolve other
  ///     bindings, and the runtime arguments, if it takes any; it may throw.
  @inlinable @inline(__always)
  public mutating func bind<T, each Argument>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    dependsOn dependencies: [BindingKey]? = nil,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (borrowing Resolver, repeat each Argument) throws -> T
  ) {
    declaresPrivately = isPrivate
    add(
      T.self, tag: tag, lifetime: lifetime, arguments: repeat (each Argument).self,
      isOverride: isOverride, location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(keys: dependencies), metadata: metadata,
      disposer: Self.disposer(dispose),
      maker: { resolver, arguments, out in
        out.initialize(to: try apply(factory, resolver, arguments))
      })
  }

  /// Binds `type` to an initializer (or any function) whose parameters are resolved by type:
  /// autowiring.
  ///
  /// The parameters are the binding's declared dependencies, so `build()` checks
  /// that each is bound and that they form no cycle.
  ///
  /// ```swift
  /// registrar.bind(FeedService.self, lifetime: .persistent, to: FeedService.init(client:cache:))
  /// registrar.bind((any FeedServicing).self, to: FeedService.init(client:cache:))
  /// // A closure with typed parameters is the same form: each parameter is resolved and checked.
  /// registrar.bind(Cache.self) { (store: Store) in Cache(store: store, limit: 100) }
  /// ```
  ///
  /// Every parameter is resolved untagged; to tag some, pass ``Dependency`` values with
  /// `bind(_:tag:lifetime:override:private:metadata:dispose:fileID:line:to:dependencies:)`.
  ///
  /// Any number of parameters works.
  ///
  /// Name `arguments:` and the initializer's leading parameters are runtime arguments of those
  /// types, in order, while the others are resolved and checked by `build()`: assisted
  /// injection (Dagger's `@AssistedInject`, Autofac's `Func<A, T>`). Every resolve makes a new
  /// instance from the arguments it passes:
  ///
  /// ```swift
  /// final class DetailModel {
  ///   init(id: Int, source: String, feed: FeedService, log: Logger) { … }
  /// }
  /// registrar.bind(
  ///   DetailModel.self, arguments: Int.self, String.self,
  ///   to: DetailModel.init(id:source:feed:log:))
  /// let model = try container.resolve(DetailModel.self, arguments: 7, "feed")
  /// ```
  ///
  /// A consumer that makes them later takes a `Provider<DetailModel>` and declares the
  /// argument types, so that `build()` checks them too:
  /// `dependencies: .withArguments(Int.self, String.self)`.
  ///
  /// - Parameters:
  ///   - type: The bound type; the initializer's result converts to it.
  ///   - tag: An optional tag.
  ///   - lifetime: How long instances live; with `arguments:`, ephemeral.
  ///   - arguments: The types of the runtime arguments, the initializer's first parameters;
  ///     none when every parameter is resolved.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How an instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The function that builds the instance from the runtime arguments, if
  ///     any, then its dependencies.
  @inlinable
  public mutating func bind<T, each Argument, each Parameter>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    arguments: repeat (each Argument).Type, override isOverride: Bool = false,
    private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> T
  ) {
    declaresPrivately = isPrivate
    guard _isEmpty(repeat (each Argument).self) else {
      return addAssisted(
        T.self, tag: tag, lifetime: lifetime, arguments: repeat (each Argument).self,
        isOverride: isOverride, metadata: metadata, disposer: Self.disposer(dispose),
        location: BindingLocation(file: fileID, line: line), initializer: initializer)
    }
    let parameters = _Parameters(repeat Dependency<each Parameter>.untagged)
    add(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(repeat (each Parameter).self), metadata: metadata,
      disposer: Self.disposer(dispose),
      parameters: parameters,
      maker: { resolver, _, out in out.initialize(to: try resolver.call(initializer)) })
  }

  /// Binds `type` to an initializer whose parameters are resolved as `dependencies` say, one
  /// per parameter, in order: untagged or with a tag.
  ///
  /// ```swift
  /// registrar.bind(
  ///   FeedService.self, lifetime: .persistent,
  ///   to: FeedService.init(client:cache:),
  ///   dependencies: .untagged, .tagged("disk"))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag of the binding itself (never passed on to its dependencies).
  ///   - lifetime: How long instances live.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - metadata: Any data to find the binding by.
  ///   - dispose: How an instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The function that builds the instance.
  ///   - dependencies: How each parameter is resolved.
  @inlinable @_disfavoredOverload
  public mutating func bind<T, each Parameter>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> T,
    dependencies: repeat Dependency<each Parameter>
  ) {
    declaresPrivately = isPrivate
    let parameters = _Parameters(repeat interned(each dependencies))
    add(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(repeat each dependencies),
      metadata: metadata, disposer: Self.disposer(dispose),
      parameters: parameters,
      maker: { resolver, _, out in out.initialize(to: try resolver.call(initializer)) })
  }

  /// Binds `type` to an instance that is made once and shared (a persistent binding).
  ///
  /// Without `dispose:`, the instance expression is evaluated on first resolve. With it, it is
  /// evaluated by `build()`, so that ``Container/shutdown()`` disposes the instance exactly
  /// once whether or not anything resolved it — a pool opened at start-up is closed at shutdown.
  ///
  /// ```swift
  /// registrar.bind(Config.self, instance: Config(baseURL: "https://example.com"))
  /// registrar.bind(Pool.self, dispose: { try await $0.close() }, instance: pool)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: An optional tag.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - dispose: How the instance ends at ``Container/shutdown()``; without it the container
  ///     never disposes an instance it was handed.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - instance: The expression making the instance, evaluated once: by `build()` when
  ///     `dispose` is given, else on first resolve.
  @inlinable
  public mutating func bind<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, override isOverride: Bool = false,
    private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    instance: @autoclosure @escaping @Sendable () -> T
  ) {
    declaresPrivately = isPrivate
    add(
      T.self, tag: tag, lifetime: .persistent(eager: dispose != nil), isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line), dependencies: [], metadata: metadata,
      disposer: Self.disposer(dispose), isHandedOver: dispose != nil,
      maker: { _, _, out in out.initialize(to: instance()) })
  }

  /// Binds `type` to an object someone else owns, held weakly: resolves return it while its
  /// owner keeps it alive, and fail with a clear error afterwards.
  ///
  /// The container neither keeps nor disposes it.
  ///
  /// ```swift
  /// registrar.bind((any AppRouting).self, weakInstance: appDelegate)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The bound type: the object's class, or a protocol it conforms to.
  ///   - tag: An optional tag.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - instance: The object, referenced weakly.
  public mutating func bind<T, Object: AnyObject & Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, override isOverride: Bool = false,
    private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil, fileID: StaticString = #fileID, line: UInt = #line,
    weakInstance instance: Object
  ) {
    declaresPrivately = isPrivate
    let reference = WeakReference(instance)
    add(
      T.self, tag: tag, lifetime: .ephemeral, isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line), dependencies: [], metadata: metadata,
      maker: { _, _, out in
        guard let object = reference.object else {
          throw WeakInstanceReleased(type: T.self, problem: "was released by its owner")
        }
        guard let value = object as? T else {
          throw WeakInstanceReleased(type: T.self, problem: "is a \(Object.self), not a \(T.self)")
        }
        out.initialize(to: value)
      })
  }

  /// Declares a value each ``Scope`` provides — the request being served, the signed-in user —
  /// so that bindings can depend on it and `build()` checks them.
  ///
  /// A scope gets it from
  /// ``Container/makeScope(_:)``; it is never made nor disposed by the container.
  ///
  /// ```swift
  /// registrar.bindScopeValue(Request.self)
  /// registrar.bind(AuditTrail.self, lifetime: .scoped, to: AuditTrail.init(request:log:))
  ///
  /// let scope = try container.makeScope { values in values.provide(request) }
  /// ```
  ///
  /// Resolving it in a scope made without it throws ``ResolutionError/Code/scopeValueMissing``;
  /// outside any scope, ``ResolutionError/Code/scopeRequired``.
  ///
  /// - Parameters:
  ///   - type: The type of the value.
  ///   - tag: An optional tag.
  ///   - isPrivate: `true` to keep the value inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  public mutating func bindScopeValue<T: Sendable>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, private isPrivate: Bool = false,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    declaresPrivately = isPrivate
    let binding = AnyBinding(
      key: BindingKey(T.self, boxed: internedTag(tag)), lifetime: .scoped,
      location: BindingLocation(file: fileID, line: line), registerType: registerType,
      isOverride: isOverriding, layout: _ValueLayout(of: T.self),
      maker: { _, _, _ in throw ScopeValueNotProvided() })
    binding.dependencies = []
    binding.isScopeValue = true
    keep(binding)
  }

  /// Runs `step` on every new instance of the binding of `type` once the resolution that made
  /// it has made everything else, with a resolver in that same resolution: the place to fill a
  /// back-reference (a child's parent, a delegate) that a constructor cannot take without a
  /// cycle.
  ///
  /// Swinject calls it `initCompleted`, Dip `resolvingProperties`.
  ///
  /// ```swift
  /// registrar.bind(Parent.self, lifetime: .graph, to: Parent.init(child:))
  /// registrar.bind(Child.self, lifetime: .graph, to: Child.init)
  /// registrar.initCompleted(Child.self) { resolver, child in
  ///   child.parent = try resolver.resolve(Parent.self)  // the Parent of this same graph
  /// }
  /// let parent = try container.resolve(Parent.self)
  /// // parent.child.parent === parent
  /// ```
  ///
  /// In the `graph` lifetime the resolver gets the graph's instances, so a back-reference
  /// closes on the instance being built; a persistent instance gets the persistent one. Steps
  /// run in the order their instances were made, after the top-level instance is complete.
  ///
  /// A shared instance (persistent, cached, scoped, transient) made in a resolution that runs
  /// steps is published only when every step ran: no other thread sees it earlier (one that
  /// asks waits), while the resolution's own steps are served it. If a step or a factory
  /// throws, nothing that resolution made is kept: the next request makes it again and runs
  /// its step. (A discarded instance with a disposer is still disposed, at shutdown.)
  /// The binding may be declared in any form and any assembly (not `async`); the step applies
  /// to whichever binding of the key wins, an override included.
  ///
  /// - Parameters:
  ///   - type: The bound type.
  ///   - tag: The binding's tag, if it has one.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - step: Completes the new instance; it may resolve, and may throw.
  public mutating func initCompleted<T>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, fileID: StaticString = #fileID,
    line: UInt = #line, _ step: @escaping @Sendable (borrowing Resolver, T) throws -> Void
  ) {
    collector.completions.append(
      (
        BindingKey(T.self, boxed: internedTag(tag)), BindingLocation(file: fileID, line: line),
        { resolver, instance in try step(resolver, UnexpectedValueType.cast(instance, to: T.self)) }
      ))
  }

  /// Declares that `consumer` holding on to `dependency` is intended, although `dependency`
  /// lives shorter than `consumer` (a captive dependency, which `build()` otherwise reports).
  ///
  /// ```swift
  /// // The audit log keeps the session it started in, on purpose.
  /// registrar.allowCaptive(AuditLog.self, dependency: Session.self, because: "one log per launch")
  /// ```
  ///
  /// - Parameters:
  ///   - consumer: The longer-lived binding's type.
  ///   - consumerTag: Its tag.
  ///   - dependency: The shorter-lived dependency's type.
  ///   - dependencyTag: Its tag, as declared by the consumer.
  ///   - reason: Why it is intended; shown in graph exports.
  public mutating func allowCaptive<Consumer, Captive>(
    _ consumer: Consumer.Type, tag consumerTag: (any Hashable & Sendable)? = nil,
    dependency: Captive.Type, dependencyTag: (any Hashable & Sendable)? = nil,
    because reason: String
  ) {
    collector.allowedCaptives[
      CaptiveKey(
        consumer: BindingKey(Consumer.self, boxed: internedTag(consumerTag)),
        dependency: BindingKey(Captive.self, boxed: internedTag(dependencyTag)))] = reason
  }

  /// The build's shared box for a tag given at registration.
  @usableFromInline
  func internedTag(_ tag: (any Hashable & Sendable)?) -> BindingTag? {
    // `nil` is told apart without copying the optional existential (a runtime value witness).
    if tag == nil { return nil }
    return tag.map { collector.intern(BindingTag($0)) }
  }

  /// `dependency` with the build's shared box for its tag.
  @usableFromInline
  func interned<Value>(_ dependency: Dependency<Value>) -> Dependency<Value> {
    guard let tag = dependency.tag else { return dependency }
    return Dependency(tag: collector.intern(tag), matching: dependency.matching)
  }

  /// What `dependsOn:` keys declare: each served by its binding, or the untagged one for a tag;
  /// `nil` (an unchecked factory) stays `nil`.
  @usableFromInline
  static func declared(keys: [BindingKey]?) -> [DeclaredDependency]? {
    keys.map { $0.map { DeclaredDependency(key: $0, matching: .allowingFallback) } }
  }

  /// What `dependencies:` declare, one per parameter.
  @usableFromInline
  static func declared<each Parameter>(
    _ dependencies: repeat Dependency<each Parameter>
  ) -> [DeclaredDependency] {
    var declared: [DeclaredDependency] = []
    for dependency in repeat each dependencies { declared.append(dependency.declared) }
    return declared
  }

  /// The declared dependencies of an initializer's parameters, untagged.
  @usableFromInline
  static func declared<each Parameter>(
    _ parameters: repeat (each Parameter).Type
  ) -> [DeclaredDependency] {
    var dependencies: [DeclaredDependency] = []
    for parameter in repeat each parameters {
      dependencies.append(
        DeclaredDependency(key: BindingKey(parameter, boxed: nil), matching: .allowingFallback))
    }
    return dependencies
  }

  @usableFromInline
  mutating func add<T>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime?, isOverride: Bool,
    location: BindingLocation, dependencies: [DeclaredDependency]?, metadata: (any Sendable)?,
    disposer: Disposer? = nil, contributes: Bool = false, isMainActor: Bool = false,
    isHandedOver: Bool = false, parameters: _Parameters? = nil, maker: @escaping Maker
  ) {
    let key = BindingKey(T.self, boxed: internedTag(tag))
    let isOverride = isOverride || isOverriding
    let binding = AnyBinding(
      key: key, lifetime: lifetime ?? defaultLifetime, location: location,
      registerType: registerType, isOverride: isOverride, layout: _ValueLayout(of: T.self),
      parameters: parameters, maker: maker)
    binding.inheritsLifetime = lifetime == nil
    binding.dependencies = dependencies
    binding.attach(metadata)
    binding.isMainActor = isMainActor
    binding.disposer = disposer
    binding.isHandedOver = isHandedOver
    if contributes {
      keepContribution(binding)
    } else {
      keep(binding)
    }
  }

  /// Adds one element to the multi-binding of `type`: every contribution is kept (none is a
  /// duplicate), and ``Container/resolveAll(_:tag:arguments:where:isolation:)`` returns them in assembly order, then
  /// registration order.
  ///
  /// ```swift
  /// registrar.contribute(Plugin.self, metadata: PluginInfo(name: "spell check")) {
  ///   SpellCheck()
  /// }
  /// registrar.contribute(Plugin.self, to: WordCount.init)
  /// let plugins = try container.resolveAll(Plugin.self)
  /// ```
  ///
  /// A factory that takes runtime arguments after its resolver makes a contribution that
  /// ``Resolving/resolveAll(_:tag:arguments:where:isolation:)`` makes anew from the arguments
  /// it passes, with every other contribution of those argument types:
  ///
  /// ```swift
  /// registrar.contribute(Exporter.self) { (_, report: Report) in CSVExporter(report) }
  /// registrar.contribute(Exporter.self) { (resolver, report: Report) in
  ///   PDFExporter(report, fonts: try resolver.resolve())
  /// }
  /// let exporters = try container.resolveAll(Exporter.self, arguments: report)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type of the collection.
  ///   - tag: Contributions with a tag form their own collection.
  ///   - lifetime: How long each contributed instance lives.
  ///   - isOverride: `true` to replace the contributions of the same type and tag from
  ///     registers that do not override (a test's plugins instead of production's). The
  ///     contributions of a register added with ``ContainerBuilder/overriding(with:)`` override.
  ///   - isPrivate: `true` to keep the contribution inside its assembly: only the bindings of
  ///     that ``Assembly`` and of the plain registers it includes see it in the collection.
  ///   - dependencies: What the factory resolves, checked by `build()`.
  ///   - metadata: Any data to choose the contribution by, with ``Resolving/resolveAll(_:tag:arguments:where:isolation:)``.
  ///   - dispose: How each contributed instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - factory: Builds the contributed instance from a resolver and the runtime arguments,
  ///     if it takes any.
  @inlinable @inline(__always)
  public mutating func contribute<T, each Argument>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    dependsOn dependencies: [BindingKey]? = nil,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping @Sendable (borrowing Resolver, repeat each Argument) throws -> T
  ) {
    declaresPrivately = isPrivate
    add(
      T.self, tag: tag, lifetime: lifetime, arguments: repeat (each Argument).self,
      isOverride: isOverride, location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(keys: dependencies), metadata: metadata,
      disposer: Self.disposer(dispose), contributes: true,
      maker: { resolver, arguments, out in
        out.initialize(to: try apply(factory, resolver, arguments))
      })
  }

  /// Adds one element to the multi-binding of `type`, made by an autowired initializer.
  ///
  /// ```swift
  /// registrar.contribute(Plugin.self, to: WordCount.init(counter:))
  /// // Leading runtime arguments, as `bind` takes them; `resolveAll(_:arguments:)` passes them.
  /// registrar.contribute(
  ///   Exporter.self, arguments: Report.self, to: PDFExporter.init(report:fonts:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type of the collection.
  ///   - tag: Contributions with a tag form their own collection.
  ///   - lifetime: How long each contributed instance lives; with `arguments:`, ephemeral.
  ///   - arguments: The types of the runtime arguments, the initializer's first parameters.
  ///   - isOverride: `true` to replace the contributions of the same type and tag from
  ///     registers that do not override.
  ///   - isPrivate: `true` to keep the contribution inside its assembly: only the bindings of
  ///     that ``Assembly`` and of the plain registers it includes see it in the collection.
  ///   - metadata: Any data to find the contribution by.
  ///   - dispose: How each contributed instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The function that builds the instance from the runtime arguments, if
  ///     any, then its dependencies.
  @inlinable
  public mutating func contribute<T, each Argument, each Parameter>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    arguments: repeat (each Argument).Type, override isOverride: Bool = false,
    private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil, dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> T
  ) {
    declaresPrivately = isPrivate
    guard _isEmpty(repeat (each Argument).self) else {
      return addAssisted(
        T.self, tag: tag, lifetime: lifetime, arguments: repeat (each Argument).self,
        isOverride: isOverride, metadata: metadata, disposer: Self.disposer(dispose),
        location: BindingLocation(file: fileID, line: line), contributes: true,
        initializer: initializer)
    }
    let parameters = _Parameters(repeat Dependency<each Parameter>.untagged)
    add(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(repeat (each Parameter).self), metadata: metadata,
      disposer: Self.disposer(dispose), contributes: true,
      parameters: parameters,
      maker: { resolver, _, out in out.initialize(to: try resolver.call(initializer)) })
  }

  /// Adds one element to the multi-binding of `type`, made by an initializer whose parameters
  /// are resolved as `dependencies` say, one per parameter, in order.
  ///
  /// ```swift
  /// registrar.contribute(Plugin.self, to: Exporter.init(store:), dependencies: .tagged("disk"))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type of the collection.
  ///   - tag: Contributions with a tag form their own collection.
  ///   - lifetime: How long each contributed instance lives.
  ///   - isOverride: `true` to replace the contributions of the same type and tag from
  ///     registers that do not override.
  ///   - isPrivate: `true` to keep the contribution inside its assembly: only the bindings of
  ///     that ``Assembly`` and of the plain registers it includes see it in the collection.
  ///   - metadata: Any data to find the contribution by.
  ///   - dispose: How each contributed instance ends, sync or async, for a lifetime that keeps it
  ///     (``Lifetime``): run by ``Container/shutdown()`` or ``Scope/close()``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  ///   - initializer: The function that builds the instance.
  ///   - dependencies: How each parameter is resolved.
  @inlinable @_disfavoredOverload
  public mutating func contribute<T, each Parameter>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, lifetime: Lifetime.For<T> = .default,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil,
    dispose: (@Sendable (T) async throws -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    to initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> T,
    dependencies: repeat Dependency<each Parameter>
  ) {
    declaresPrivately = isPrivate
    let parameters = _Parameters(repeat interned(each dependencies))
    add(
      T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride,
      location: BindingLocation(file: fileID, line: line),
      dependencies: Self.declared(repeat each dependencies),
      metadata: metadata, disposer: Self.disposer(dispose), contributes: true,
      parameters: parameters,
      maker: { resolver, _, out in out.initialize(to: try resolver.call(initializer)) })
  }

  /// Binds `type` to the instance of another binding, converted to `type`: one implementation
  /// serving several interfaces, with one lifetime and (for shared lifetimes) one instance.
  ///
  /// ```swift
  /// registrar.bind(FeedService.self, lifetime: .persistent) { FeedService() }
  /// registrar.bind(FeedServicing.self, forwardingTo: FeedService.self)
  /// registrar.bind(Refreshing.self, forwardingTo: FeedService.self)
  /// // All three resolve to the same FeedService instance.
  /// ```
  ///
  /// The target must be a binding declared with a factory or instance, not another forward.
  /// The conversion is checked when the first instance is made; a target whose instance is not
  /// a `type` fails with ``ResolutionError/Code/forwardingTypeMismatch``.
  ///
  /// A target that takes runtime arguments is forwarded to with their types: the forward takes
  /// the same arguments and passes them on (Swinject's `.implements` on a registration with
  /// arguments). `build()` checks that the target is bound with exactly these argument types,
  /// and every resolve makes a new instance, as the target does:
  ///
  /// ```swift
  /// registrar.bind(Download.self) { (_, url: URL, retries: Int) in Download(url, retries) }
  /// registrar.bind((any Transfer).self, forwardingTo: Download.self, arguments: URL.self, Int.self)
  /// let transfer = try container.resolve((any Transfer).self, arguments: url, 3)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The interface resolves ask for.
  ///   - tag: The interface binding's tag.
  ///   - target: The type of the binding that makes the instance.
  ///   - targetTag: The target binding's tag.
  ///   - arguments: The types of the target's runtime arguments, in order; none for a target
  ///     without.
  ///   - isOverride: `true` to replace a binding of the same key declared elsewhere.
  ///   - isPrivate: `true` to keep the binding inside its assembly: only the bindings of that
  ///     ``Assembly`` and of the plain registers it includes may depend on it.
  ///   - metadata: Any data to find the binding by, in ``BindingInfo/metadata``.
  ///   - fileID: Captured for diagnostics.
  ///   - line: Captured for diagnostics.
  public mutating func bind<T, Target, each Argument>(
    _ type: T.Type, tag: (any Hashable & Sendable)? = nil, forwardingTo target: Target.Type,
    targetTag: (any Hashable & Sendable)? = nil, arguments: repeat (each Argument).Type,
    override isOverride: Bool = false, private isPrivate: Bool = false,
    metadata: (any Sendable)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    declaresPrivately = isPrivate
    let location = BindingLocation(file: fileID, line: line)
    let targetTag = internedTag(targetTag)
    guard _isEmpty(repeat (each Argument).self) else {
      let signature: Any.Type = (repeat each Argument).self
      let targetKey = BindingKey(Target.self, boxed: targetTag, argumentTypes: signature)
      addArguments(
        T.self, tag: tag, signature: signature, lifetime: .ephemeral, isOverride: isOverride,
        dependencies: [DeclaredDependency(key: targetKey, matching: .exact)], metadata: metadata,
        location: location, forwardingTo: targetKey
      ) { resolver, arguments, out in
        let instance = try resolver.withContext {
          container, context throws(ResolutionError) -> Target in
          try container.resolve(
            Target.self, tag: targetTag, matching: .exact, signature: signature,
            arguments: arguments, parent: context)
        }
        guard let converted = instance as? T else {
          throw ForwardedInstanceMismatch(instanceType: Swift.type(of: instance as Any))
        }
        out.initialize(to: converted)
      }
      return
    }
    let targetKey = BindingKey(Target.self, boxed: targetTag)
    let binding = AnyBinding(
      key: BindingKey(T.self, boxed: internedTag(tag)), forwardingTo: targetKey,
      location: location, registerType: registerType,
      isOverride: isOverride || isOverriding, layout: _ValueLayout(of: T.self),
      converter: Forward.Conversion<T, Target>())
    binding.dependencies = [DeclaredDependency(key: targetKey, matching: .exact)]
    binding.attach(metadata)
    keep(binding)
  }

  /// Adds a binding (or contribution) of `type` made by `maker`, which takes the runtime
  /// arguments `arguments` names, if any: the one path of the factory forms.
  @inlinable @inline(__always)
  mutating func add<T, each Argument>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime.For<T>,
    arguments: repeat (each Argument).Type, isOverride: Bool, location: BindingLocation,
    dependencies: [DeclaredDependency]?, metadata: (any Sendable)?, disposer: Disposer?,
    contributes: Bool = false, isMainActor: Bool = false, maker: @escaping Maker
  ) {
    if _isEmpty(repeat (each Argument).self) {
      add(
        T.self, tag: tag, lifetime: lifetime.explicit, isOverride: isOverride,
        location: location, dependencies: dependencies, metadata: metadata, disposer: disposer,
        contributes: contributes, isMainActor: isMainActor, maker: maker)
    } else {
      addArguments(
        T.self, tag: tag, signature: (repeat each Argument).self,
        lifetime: lifetime.explicit ?? .ephemeral, isOverride: isOverride,
        dependencies: dependencies, metadata: metadata, location: location, disposer: disposer,
        isMainActor: isMainActor, contributes: contributes, maker: maker)
    }
  }

  /// An autowired initializer whose leading parameters are the runtime arguments `arguments`
  /// names and whose other parameters are resolved: the `to:` forms given `arguments:`.
  @usableFromInline
  mutating func addAssisted<T, each Argument, each Parameter>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, lifetime: Lifetime.For<T>,
    arguments: repeat (each Argument).Type, isOverride: Bool, metadata: (any Sendable)?,
    disposer: Disposer?, location: BindingLocation, contributes: Bool = false,
    initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> T
  ) {
    let assisted = AssistedSignature(
      arguments: repeat (each Argument).self, parameters: repeat (each Parameter).self)
    let offsets = assisted.offsets
    addArguments(
      T.self, tag: tag, signature: assisted.signature, lifetime: lifetime.explicit ?? .ephemeral,
      isOverride: isOverride, dependencies: assisted.dependencies, metadata: metadata,
      location: location, disposer: disposer, contributes: contributes
    ) { resolver, arguments, out in
      var cursor = _ArgumentCursor(arguments, offsets: offsets)
      out.initialize(
        to: try initializer(repeat try resolver.parameter((each Parameter).self, from: &cursor)))
    }
    report(assisted, for: T.self, tag: tag)
  }

  /// Reports an assisted binding whose declared argument types are not its initializer's
  /// leading parameter types.
  func report<T>(_ assisted: AssistedSignature, for _: T.Type, tag: (any Hashable & Sendable)?) {
    guard let leadingTypes = assisted.mismatch else { return }
    let key = BindingKey(T.self, boxed: internedTag(tag), argumentTypes: assisted.signature)
    collector.report(
      Diagnostic(
        .invalidSetting, .error, key: key, bindings: pending.last.map { [$0.info] } ?? [],
        message: """
          \(key) declares runtime arguments \(TypeName.list(assisted.argumentTypes)), but its \
          initializer's first parameters are \(TypeName.list(leadingTypes)).
          """,
        fixes: [
          "Name the initializer's leading parameter types in `arguments:`, in order; the "
            + "parameters after them are resolved."
        ]))
  }
  /// Adds a binding with the runtime arguments `signature` names.
  ///
  /// Every resolve makes a new instance from the arguments it passes. A `lifetime` other than
  /// ephemeral, written at the declaration, is kept for `build()` to refuse.
  @usableFromInline
  mutating func addArguments<T>(
    _ type: T.Type, tag: (any Hashable & Sendable)?, signature: Any.Type, lifetime: Lifetime,
    isOverride: Bool, dependencies: [DeclaredDependency]?, metadata: (any Sendable)?,
    location: BindingLocation, disposer: Disposer? = nil, isMainActor: Bool = false,
    contributes: Bool = false, forwardingTo target: BindingKey? = nil, maker: @escaping Maker
  ) {
    let binding = AnyBinding(
      key: BindingKey(T.self, boxed: internedTag(tag), argumentTypes: signature),
      lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride || isOverriding, layout: _ValueLayout(of: T.self), maker: maker)
    binding.dependencies = dependencies
    binding.attach(metadata)
    binding.isMainActor = isMainActor
    binding.disposer = disposer
    binding.argumentForwardTarget = target
    if contributes {
      keepContribution(binding)
    } else {
      keep(binding)
    }
  }
}
/// What an assisted initializer's declaration says: the runtime argument types it names, where
/// each sits in the tuple of arguments a request passes, and the initializer's other
/// parameters, which are its declared dependencies.
struct AssistedSignature {
  /// The named runtime argument types, in order.
  let argumentTypes: [Any.Type]
  /// The initializer's parameter types, in order.
  let parameterTypes: [Any.Type]
  /// The tuple type of the arguments: the binding key's argument types.
  let signature: Any.Type
  /// Each argument's offset in that tuple.
  let offsets: [Int]

  init<each Argument, each Parameter>(
    arguments: repeat (each Argument).Type, parameters: repeat (each Parameter).Type
  ) {
    var argumentTypes: [Any.Type] = []
    var layouts: [(size: Int, alignment: Int)] = []
    for argument in repeat each arguments {
      argumentTypes.append(argument)
      layouts.append(layout(of: argument))
    }
    var parameterTypes: [Any.Type] = []
    for parameter in repeat each parameters { parameterTypes.append(parameter) }
    self.argumentTypes = argumentTypes
    self.parameterTypes = parameterTypes
    signature = (repeat each Argument).self
    offsets = _ArgumentCursor.offsets(of: layouts)
  }

  /// The parameters after the arguments, resolved untagged.
  var dependencies: [DeclaredDependency] {
    parameterTypes.dropFirst(argumentTypes.count).map {
      DeclaredDependency(key: BindingKey($0, boxed: nil), matching: .allowingFallback)
    }
  }

  /// The initializer's leading parameter types when they are not the named argument types.
  var mismatch: [Any.Type]? {
    let leading = Array(parameterTypes.prefix(argumentTypes.count))
    let same = leading.map(ObjectIdentifier.init) == argumentTypes.map(ObjectIdentifier.init)
    return same ? nil : leading
  }
}

/// The size and alignment of `type`, as a tuple of it lays it out.
private func layout<Value>(of _: Value.Type) -> (size: Int, alignment: Int) {
  (MemoryLayout<Value>.size, MemoryLayout<Value>.alignment)
}

/// Calls `factory` with the elements of the tuple `arguments` holds, whose type is exactly
/// `(repeat each Argument)`.
@usableFromInline @_transparent
func apply<T, each Argument>(
  _ factory: (borrowing Resolver, repeat each Argument) throws -> T, _ resolver: borrowing Resolver,
  _ arguments: borrowing _Arguments
) throws -> T {
  let values = arguments.load(as: (repeat each Argument).self)
  return try factory(resolver, repeat each values)
}
