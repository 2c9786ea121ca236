public import JoineryEngine

/// One binding of a container: its description, and the lifetime logic that makes or finds its
/// instance.
///
/// Bindings are not generic: the bound type is known only to the closures made when it was
/// declared (``Maker`` and ``_ValueLayout``) and to the generic resolve call, which passes memory
/// for the instance and a function that copies one. So a container of 10,000 types creates no
/// per-type class metadata, and a resolve from another module needs no runtime generic lookup.
///
/// A binding is created by a ``Registrar`` during `build()`, owned by exactly one container, and
/// never changes its description afterwards. It is the home of the instance it keeps for the
/// container (``InstanceHome``); subclasses own the rest of the lifetime state and synchronize it
/// themselves, hence `@unchecked Sendable`.
@usableFromInline
class AnyBinding: InstanceHome, @unchecked Sendable {
  // Stored properties are laid out in declaration order; this one leaves no padding between
  // the small ones (every container keeps one binding object per declaration).
  @usableFromInline let key: BindingKey
  let registerType: Any.Type
  /// How long instances live, as declared.
  let lifetime: Lifetime
  let isOverride: Bool
  /// Whether this is a synchronous ``FactoryBinding`` with the transient lifetime, whose
  /// resolve tries the weakly kept instance first.
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
  /// A synchronous ``FactoryBinding``'s lifetime strategy type, whose class methods a resolve
  /// calls directly (one call fewer per level than through
  /// ``resolve(into:in:parent:fallbackTag:)``); `nil` for the other bindings.
  @usableFromInline let factoryStrategy: LifetimeKind.Type?
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

  /// An async factory binding's factory of the resolver alone (``FactoryBinding/makeAsync(_:)``).
  var asyncMaker: FactoryBinding.AsyncMaker? { extras?.asyncMaker }

  /// An async factory binding's factory of the resolver and the request's runtime arguments.
  var asyncArgumentMaker: FactoryBinding.AsyncArgumentMaker? { extras?.asyncArgumentMaker }

  /// Keeps an async binding's factories, as it is made.
  func setAsyncMakers(
    _ maker: FactoryBinding.AsyncMaker?,
    withArguments argumentMaker: FactoryBinding.AsyncArgumentMaker?
  ) {
    let extras = writableExtras
    extras.asyncMaker = maker
    extras.asyncArgumentMaker = argumentMaker
  }

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
  final func recordDisposal(in list: DisposalList, home: InstanceHome? = nil) {
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
  /// Here rather than on ``FactoryBinding``, the only kind with one: the initializer reads it
  /// from the binding its frame builds, which the chain knows as an `AnyBinding`.
  @usableFromInline final let parameters: _Parameters?

  /// What few bindings have, kept apart so that the others do not pay for the space.
  private var extras: BindingExtras?

  /// The extras to write to: copied first if another binding shares them (copy on write), so
  /// that a copy's declaration never changes its original's.
  private var writableExtras: BindingExtras {
    if !isKnownUniquelyReferenced(&extras) { extras = extras?.copy() ?? BindingExtras() }
    return extras!
  }

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, layout: _ValueLayout, isWeaklyShared: Bool = false,
    factoryStrategy: LifetimeKind.Type? = nil, isAsync: Bool = false,
    parameters: _Parameters? = nil
  ) {
    self.parameters = parameters
    self.key = key
    self.isWeaklyShared = isWeaklyShared
    self.isAsync = isAsync
    self.factoryStrategy = factoryStrategy
    self.lifetime = lifetime
    self.location = location
    self.registerType = registerType
    self.isOverride = isOverride
    super.init(layout: layout)
  }

  /// A binding with `other`'s declaration and none of its state.
  ///
  /// It has no instance, no gate, and no place in a container. The declaration's extras are
  /// shared, not copied, and copied on write.
  init(copying other: AnyBinding) {
    parameters = other.parameters
    key = other.key
    isWeaklyShared = other.isWeaklyShared
    isAsync = other.isAsync
    factoryStrategy = other.factoryStrategy
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

  /// The type of the lifetime's strategy, whose class methods do the lifetime's work: read from
  /// the strategy object's header, so that reaching the lifetime's code retains nothing.
  final var strategyType: LifetimeKind.Type { lifetime.strategy.kind }

  /// The public description.
  var info: BindingInfo {
    BindingInfo(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, forwardedTo: argumentForwardTarget, metadata: metadata,
      contribution: contributionIndex, isChecked: dependencies != nil, assembly: module?.type,
      isPrivate: isPrivate)
  }

  /// For a forwarding binding, the key of the binding it converts from.
  var forwardTargetKey: BindingKey? { nil }

  /// Whether resolving needs runtime arguments.
  var needsArguments: Bool { false }

  /// Whether the binding holds a shared instance now (``Container/hasInstance(of:tag:)``).
  var holdsInstance: Bool { isReady }

  /// This binding if its factory is `async`.
  var asyncFactory: FactoryBinding? { nil }

  /// A binding with the same declaration and no instances, for a throwaway container.
  func fresh() -> AnyBinding {
    preconditionFailure("\(Self.self) must override fresh()")
  }

  /// Called once by `build()` after every binding of the container exists.
  func link(in container: Container) {}

  /// Writes the instance for one request into `out`, a slot for the bound type.
  @usableFromInline
  func resolve(
    into out: borrowing _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    preconditionFailure("\(Self.self) must override resolve(into:)")
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
