public import JoineryEngine

/// One binding of a container: its declaration, the state its lifetime keeps, and the code that
/// finds or makes its instance. Every binding is one: a synchronous factory (closure,
/// initializer or instance, with or without runtime arguments), an `async` one, a main-actor
/// one, a forward to another binding.
///
/// Bindings are not generic: the bound type is known only to the closures made when it was
/// declared (``Maker`` and ``_ValueLayout``) and to the generic resolve call, which passes memory
/// for the instance and a function that copies one. So a container of 10,000 types creates no
/// per-type class metadata, and a resolve from another module needs no runtime generic lookup.
///
/// What a synchronous request runs is the class members of ``resolveKind``: the lifetime's kind
/// (``LifetimeKind``) for a synchronous factory, ``Forwarding`` for a forward, ``AsyncOnly`` for
/// an async factory. The asynchronous engine calls the lifetime's kind
/// (``LifetimeKind/resolveAsync(_:node:resolver:path:in:)``), in `AnyBinding+Async.swift`.
///
/// What each lifetime keeps between resolves:
/// - `persistent`: the instance in `storage`, written once under the creation gate (for an async
///   factory, by its creation's task) and published by `isReady` (release/acquire), then read
///   without a lock. An async factory's requests share ``LifetimeCell/slot`` until then.
/// - `ephemeral`: nothing.
/// - `graph`: nothing here; instances live in the resolution's root state (async: its graph
///   memory).
/// - `transient`: a weak reference to the object in ``cell``. Synchronously, also a copy of the
///   instance's bits in `storage` that does not own it (the bound type may be a protocol
///   existential wrapping the object). The bits are copied out only together with a strong
///   reference loaded from the weak one, so the object they refer to is alive; they are
///   rewritten only when it is dead.
/// - `cached`: synchronously, the instance in `storage` and its cache-group generation in
///   ``cell``, both touched only holding the creation gate; asynchronously, the creation in
///   ``cell`` and the generation it was started in.
/// - `scoped`: nothing here; each scope keeps its instance (``Scope``).
/// - a forward: its target's converted instance in `storage`, when the target is permanent.
///
/// A binding is created by a ``Registrar`` during `build()`, owned by exactly one container, and
/// never changes its declaration afterwards. It is the home of the instance it keeps for the
/// container (``InstanceHome``).
// `cell` is a lock of its own; `storage` is written under the creation gate (or the cell's lock,
// for an async persistent instance) and published by `isReady`; the rest is written only before
// the container is shared.
@usableFromInline
final class AnyBinding: InstanceHome, @unchecked Sendable {
  // Stored properties are laid out in declaration order; this one leaves no padding between
  // the small ones (every container keeps one binding object per declaration).
  @usableFromInline let key: BindingKey
  let registerType: Any.Type
  /// How long instances live, as declared.
  let lifetime: Lifetime
  let isOverride: Bool
  /// Whether this is a synchronous factory with the transient lifetime, whose resolve tries the
  /// weakly kept instance first.
  @usableFromInline let isWeaklyShared: Bool
  /// Whether the factory is `async` (resolved only with `resolveAsync`): stored, so that the
  /// synchronous engine's check is a load, not a dynamically dispatched call.
  @usableFromInline let isAsync: Bool
  /// Whether the lifetime is its register's default rather than written at the binding: a
  /// written one is a choice `build()` does not question (``CaptiveDependencyValidator``).
  var inheritsLifetime = false
  /// Whether only the bindings of its ``module`` may depend on it (`private: true`).
  var isPrivate = false
  /// The assembly whose boundary the binding is declared in, if any.
  var module: Module?

  /// For a private binding, the identity of the assembly type it is private to.
  var privateTo: ObjectIdentifier? {
    isPrivate ? module.map { ObjectIdentifier($0.type) } : nil
  }
  private var storedPosition: Int32 = 0
  /// The code a synchronous request runs: the lifetime's kind for a synchronous factory,
  /// ``Forwarding`` for a forward, ``AsyncOnly`` for an async factory.
  ///
  /// A metatype, so that reaching the code retains nothing; stored, so that it is one load.
  @usableFromInline let resolveKind: RequestKind.Type
  let location: BindingLocation

  /// What the binding says it depends on, or `nil` for a factory that declared nothing
  /// ("unchecked").
  ///
  /// Set by the registrar before the container exists, never after.
  var dependencies: [DeclaredDependency]?

  /// The binding's position among its container's bindings, set by `build()`.
  var position: Int {
    get { Int(storedPosition) }
    set { storedPosition = Int32(newValue) }
  }

  /// Arbitrary data the binding was declared with, for filtering without creating anything.
  var metadata: (any Sendable)? {
    get { extras?.metadata }
    set {
      if newValue == nil && extras == nil { return }
      writableExtras.metadata = newValue
    }
  }

  /// Keeps `metadata` if there is some.
  ///
  /// An absent one is neither copied nor stored: a copy of an optional existential is a call
  /// into the runtime's generic value witnesses.
  func attach(_ metadata: borrowing (any Sendable)?) {
    if metadata != nil { self.metadata = copy metadata }
  }

  /// Whether the factory is isolated to the main actor (declared with `bindMainActor`).
  var isMainActor: Bool {
    get { extras?.isMainActor ?? false }
    set {
      if !newValue && extras == nil { return }
      writableExtras.isMainActor = newValue
    }
  }

  /// How the binding's kept instances end, if it was declared with `dispose:`.
  var disposer: Disposer? {
    get { extras?.disposer }
    set {
      if newValue == nil && extras == nil { return }
      writableExtras.disposer = newValue
    }
  }

  /// Whether the instance was made outside the container and handed over (`instance:`).
  var isHandedOver: Bool {
    get { extras?.isHandedOver ?? false }
    set {
      if !newValue && extras == nil { return }
      writableExtras.isHandedOver = newValue
    }
  }

  /// Whether each scope provides the instance (``Registrar/bindScopeValue(_:tag:private:fileID:line:)``).
  var isScopeValue: Bool {
    get { extras?.isScopeValue ?? false }
    set {
      if !newValue && extras == nil { return }
      writableExtras.isScopeValue = newValue
    }
  }

  /// An async binding's factory of the resolver alone (see ``asyncMake``).
  var asyncMaker: AsyncMaker? { extras?.asyncMaker }

  /// The async factory of the resolver alone, for a creation to call.
  ///
  /// Read before the closure that calls it, which the optimizer then inlines. Read inside it,
  /// the closure became an async function of its own, one more task allocation and executor
  /// check a creation (an async chain, 300 instructions a level).
  ///
  /// A binding with runtime arguments has none, and is never made without them: it gets a
  /// factory that throws.
  ///
  /// Not `asyncMaker ?? …`: the generic `??` wraps the factory in two reabstraction thunks, an
  /// allocation and two more async frames a creation.
  var asyncMake: AsyncMaker {
    if let asyncMaker { return asyncMaker }
    return { _ in throw UnexpectedValueType(expected: Void.self, found: Any.self) }
  }

  /// An async binding's factory of the resolver and the request's runtime arguments.
  var asyncArgumentMaker: AsyncArgumentMaker? { extras?.asyncArgumentMaker }

  /// For a forward, what it converts from and, once linked, the binding that is.
  var forward: Forward? { extras?.forward }

  /// What runs on a new instance at the end of the resolution that made it.
  var completion: Completion? {
    get { extras?.completion }
    set {
      if newValue == nil && extras == nil { return }
      writableExtras.completion = newValue
    }
  }

  /// Records the disposal of the instance just made in `home` (the binding's own unless given),
  /// if the binding has a disposer, in `list`.
  func recordDisposal(in list: DisposalList, home: InstanceHome? = nil) {
    guard let disposer else { return }
    list.record(self, disposer((home ?? self).storage.loadAny(layout)))
  }

  /// For an override declared in ``Registrar/overriding(_:_:)``, the assembly whose binding it
  /// replaces.
  var overrideTarget: Any.Type? {
    get { extras?.overrideTarget }
    set {
      if newValue == nil && extras == nil { return }
      writableExtras.overrideTarget = newValue
    }
  }

  /// For a forward to a binding with runtime arguments (made by a factory that resolves the
  /// target), the target's key: ``BindingInfo/forwardedTo``.
  var argumentForwardTarget: BindingKey? {
    get { extras?.forwardedTo }
    set {
      if newValue == nil && extras == nil { return }
      writableExtras.forwardedTo = newValue
    }
  }

  /// For a contribution to a multi-binding, its place among all contributions (assembly order,
  /// then registration order); `nil` for an ordinary binding.
  var contributionIndex: Int? {
    get { extras?.contributionIndex }
    set {
      if newValue == nil && extras == nil { return }
      writableExtras.contributionIndex = newValue
    }
  }

  /// How an autowired initializer's parameters are resolved (``Resolver/call(_:)``); `nil` for
  /// every other binding.
  ///
  @usableFromInline let parameters: _Parameters?

  /// What few bindings have, kept apart so that the others do not pay for the space.
  private var extras: BindingExtras?

  /// The extras to write to: copied first if another binding shares them (copy on write), so
  /// that a copy's declaration never changes its original's.
  private var writableExtras: BindingExtras {
    if !isKnownUniquelyReferenced(&extras) { extras = extras?.copy() ?? BindingExtras() }
    return extras!
  }

  /// The synchronous factory; for an async binding or a forward, one that is never called.
  ///
  /// An async binding's factories are kept with its extras (``asyncMaker``): the `async`
  /// factory of the resolver alone, or, for a binding with runtime arguments, of the resolver
  /// and the request's arguments (a tuple of the bound argument types, as `Any`: the
  /// `bindAsync` forms require them `Sendable`, and a request passes values of exactly those
  /// types, in its task).
  let maker: Maker
  /// The state a transient, cached or async binding keeps besides its instance; `nil` for the
  /// others, which need none.
  let cell: Protected<LifetimeCell>?

  // Two makers rather than one taking `()` for no arguments: a wrapper would be one more async
  // frame for every creation.
  typealias AsyncMaker = @Sendable (AsyncResolver) async throws -> any Sendable
  typealias AsyncArgumentMaker = @Sendable (AsyncResolver, Any) async throws -> any Sendable

  /// A synchronous factory binding.
  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, layout: _ValueLayout, parameters: _Parameters? = nil,
    maker: @escaping Maker
  ) {
    self.maker = maker
    cell = lifetime.strategy.usesCell ? Protected(LifetimeCell()) : nil
    self.parameters = parameters
    self.key = key
    isWeaklyShared = lifetime.strategy.sharesWeakly
    isAsync = false
    resolveKind = lifetime.strategy.kind
    self.lifetime = lifetime
    self.location = location
    self.registerType = registerType
    self.isOverride = isOverride
    super.init(layout: layout)
  }

  /// An async binding: resolved only by the asynchronous engine.
  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, layout: _ValueLayout, asyncMaker: AsyncMaker?,
    asyncArgumentMaker: AsyncArgumentMaker? = nil
  ) {
    maker = { _, _, _ in }
    cell = Protected(LifetimeCell())
    parameters = nil
    self.key = key
    isWeaklyShared = false
    isAsync = true
    resolveKind = AsyncOnly.self
    self.lifetime = lifetime
    self.location = location
    self.registerType = registerType
    self.isOverride = isOverride
    super.init(layout: layout)
    let extras = writableExtras
    extras.asyncMaker = asyncMaker
    extras.asyncArgumentMaker = asyncArgumentMaker
  }

  /// A forward: provides its type by converting the instance of the binding of `targetKey`.
  init(
    key: BindingKey, forwardingTo targetKey: BindingKey, location: BindingLocation,
    registerType: Any.Type, isOverride: Bool, layout: _ValueLayout,
    converter: any Forward.Converter
  ) {
    maker = { _, _, _ in }
    cell = nil
    parameters = nil
    self.key = key
    isWeaklyShared = false
    isAsync = false
    resolveKind = Forwarding.self
    lifetime = .ephemeral
    self.location = location
    self.registerType = registerType
    self.isOverride = isOverride
    super.init(layout: layout)
    writableExtras.forward = Forward(targetKey: targetKey, converter: converter)
  }

  /// A binding with `other`'s declaration and none of its state, for a throwaway container.
  ///
  /// It has no instance, no gate, and no place in a container. The declaration's extras are
  /// shared, not copied, and copied on write.
  init(copying other: AnyBinding) {
    maker = other.maker
    cell = other.cell == nil ? nil : Protected(LifetimeCell())
    parameters = other.parameters
    key = other.key
    isWeaklyShared = other.isWeaklyShared
    isAsync = other.isAsync
    resolveKind = other.resolveKind
    lifetime = other.lifetime
    location = other.location
    registerType = other.registerType
    isOverride = other.isOverride
    inheritsLifetime = other.inheritsLifetime
    isPrivate = other.isPrivate
    module = other.module
    dependencies = other.dependencies
    extras = other.extras
    super.init(layout: other.layout)
  }

  deinit {
    // A cached instance is not published by `isReady`: the base class would not destroy it.
    if !isAsync, let cell, cell.withLock({ $0.generation }) != 0 {
      storage.destroy(layout)
    }
  }

  /// The type of the lifetime's strategy, whose class methods do the lifetime's work: read from
  /// the strategy object's header, so that reaching the lifetime's code retains nothing.
  var strategyType: LifetimeKind.Type { lifetime.strategy.kind }

  /// The public description.
  var info: BindingInfo {
    BindingInfo(
      key: key, lifetime: forward?.target?.lifetime ?? lifetime, location: location,
      registerType: registerType, isOverride: isOverride,
      forwardedTo: forward?.targetKey ?? argumentForwardTarget, metadata: metadata,
      contribution: contributionIndex, isChecked: dependencies != nil, assembly: module?.type,
      isPrivate: isPrivate)
  }

  /// For a forwarding binding, the key of the binding it converts from.
  var forwardTargetKey: BindingKey? { forward?.targetKey }

  /// Whether resolving needs runtime arguments: the key names their tuple type.
  var needsArguments: Bool { key.argumentTypes != nil }

  /// Whether the binding holds a shared instance now (``Container/hasInstance(of:tag:)``).
  var holdsInstance: Bool {
    isAsync ? holdsAsyncInstance : strategyType.holdsInstance(self)
  }

  /// This binding if its factory is `async`.
  var asyncFactory: AnyBinding? { isAsync ? self : nil }

  /// A binding with the same declaration and no instances, for a throwaway container.
  func fresh() -> AnyBinding { AnyBinding(copying: self) }

  /// Called once by `build()` after every binding of the container exists: finds a forward's
  /// target, joins a cached binding to its group.
  func link(in container: Container) {
    if forward != nil {
      // This binding's own extras: a throwaway copy shares its original's until it writes.
      writableExtras.forward?.link(self, in: container)
      return
    }
    // Only a cached binding has a group, and every cached binding has a cell.
    guard let cell, let group = lifetime.group.map(container.cacheGroupState(for:)) else {
      return
    }
    group.add(self)
    cell.withLock { $0.group = group }
  }

  /// Writes the instance for one request into `out`, a slot for the bound type.
  @usableFromInline
  func resolve(
    into out: borrowing _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try resolveKind.resolve(
      self, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }
}

extension AnyBinding {
  /// Calls a maker in a new frame, wrapping what it throws with the path.
  @inline(__always)
  func make(
    _ maker: Maker, into out: borrowing _InstanceSlot, in container: Container,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try parent.enter(self, fallbackTag: fallbackTag, in: container) {
      frame throws(ResolutionError) in
      try frame.make(maker, into: out, for: self, in: container)
    }
  }

  /// What a factory's error becomes: a `ResolutionError` from deeper in the chain as it is,
  /// anything else wrapped with this binding and the path.
  @inline(never)
  func failure(
    _ error: any Error, frame: borrowing some ResolutionSite & ~Copyable, in container: Container
  ) -> ResolutionError {
    switch error {
    case let error as ResolutionError: error
    case is MainActorRequired: .mainActorRequired(self, frame: frame, in: container)
    case is ScopeValueNotProvided: .scopeValueMissing(self, frame: frame, in: container)
    case let mismatch as ForwardedInstanceMismatch:
      .forwardingMismatch(self, frame: frame, instanceType: mismatch.instanceType, in: container)
    default: .factoryFailed(self, frame: frame, error: error, in: container)
    }
  }
}
