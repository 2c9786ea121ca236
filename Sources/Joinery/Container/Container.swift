public import JoineryEngine

/// An immutable, thread-safe object graph made by ``ContainerBuilder/build(isolation:)``.
///
/// A container is the only thing your app keeps: it is `Sendable`, takes no new bindings after it
/// is built, and owns its persistent and cached instances. Releasing the last reference to it
/// releases them too.
///
/// ```swift
/// enum App {
///   static let container = try! ContainerBuilder(NetworkAssembly(), FeedAssembly()).build()
/// }
///
/// let feed = try App.container.resolve(FeedService.self)
/// let audit = try App.container.resolve(Logger.self, tag: "audit")
/// let download = try App.container.resolve(Download.self, arguments: url, 3)
/// ```
///
/// Lookups read a frozen table without locks. Shared instances (persistent, cached, transient)
/// are created exactly once under contention, each behind its own lock, so a slow factory never
/// blocks unrelated resolves.
public final class Container: Sendable {
  @usableFromInline let table: _BindingTable
  /// The bindings only their own module's bindings may depend on (`private: true`), by key:
  /// not in ``table``, so a request finds one only after the table missed.
  let privateBindings: [BindingKey: [AnyBinding]]
  /// The bindings that won, in registration order, then the contributions to multi-bindings.
  let all: [AnyBinding]
  /// Contributions to multi-bindings by element type, in contribution order.
  let contributions: [ObjectIdentifier: [AnyBinding]]
  /// Stands in the marker frame of a main-actor resolution; never resolved.
  let mainActorMarker = AnyBinding(
    key: BindingKey(Void.self), lifetime: .ephemeral,
    location: BindingLocation(file: #fileID, line: #line),
    registerType: Void.self, isOverride: false, layout: _ValueLayout(of: Void.self),
    maker: { _, _, _ in })
  /// The container this one was derived from with `makeChild(_:)`, if any.
  @usableFromInline let parentContainer: Container?
  let cacheGroups: [CacheGroup: CacheGroupState]
  /// Which creations wait for which, across threads and tasks: one registry for a container
  /// and every child made from it.
  let waits: WaitRegistry
  /// Types known not to be a `Provider` or `Lazy` (`derivation(of:tag:allowsFallback:)`): one memo for a
  /// container and every child made from it.
  let underivableTypes: _TypeMemo
  /// The `_OptionalDependency` conformance of each `Optional` type resolved as a `T?`, looked up
  /// once: shared like ``underivableTypes``.
  let optionalDependencies: _TypeMap<any _OptionalDependency.Type>
  /// The `Provider` and `Lazy` types asked for, with their conformance: shared likewise.
  let derivableTypes: _TypeMap<any DerivedFromContainer.Type>
  /// The disposals of the instances this container made, and whether it was shut down.
  @usableFromInline let disposals = DisposalList()
  /// The descriptions error reports search, made on first use (``catalog``).
  let catalogCache = Protected<BindingCatalog?>(nil)
  let maximumDepth: Int
  /// The captures acknowledged with `allowCaptive`, which the resolve-time check lets pass.
  let allowedCaptives: Set<CaptiveKey>
  /// The builder's default lifetime, which child containers inherit.
  let defaultLifetime: Lifetime.For<Any>
  /// Whether a binding has an `initCompleted` step: outermost creations of shared instances then
  /// run in a resolution of their own, whose end runs the steps.
  let hasCompletions: Bool
  /// Whether this container or an ancestor has a `graph` binding.
  let hasGraphBindings: Bool
  /// The index a child container's first contribution gets: past every contribution of this
  /// chain, so that an index names one contribution wherever it is resolved.
  let nextContributionIndex: Int
  /// Where a scope released without `close()` is reported (``ContainerBuilder/onUnclosedScope``).
  let unclosedScopeHandler: (@Sendable (String) -> Void)?
  /// What this container's assemblies declared they expect other modules to bind.
  let requirements: [Requirement]
  /// Records which binding's factory resolved which, in containers made by `verify()` only.
  @usableFromInline let recorder: EdgeRecorder?

  /// Findings of `build()` that did not stop it, such as an override with nothing to replace.
  ///
  /// ```swift
  /// for warning in container.warnings { print(warning) }
  /// ```
  public let warnings: [Diagnostic]

  init(
    bindings: [AnyBinding], contributions: [AnyBinding] = [], table: _BindingTable? = nil,
    maximumDepth: Int, warnings: [Diagnostic], recorder: EdgeRecorder? = nil,
    parent: Container? = nil,
    unclosedScopeHandler: (@Sendable (String) -> Void)? = nil,
    defaultLifetime: Lifetime.For<Any> = .ephemeral, allowedCaptives: Set<CaptiveKey> = [],
    requirements: [Requirement] = [], privateBindings: [BindingKey: [AnyBinding]]? = nil
  ) {
    self.requirements = requirements
    parentContainer = parent
    waits = parent?.waits ?? WaitRegistry()
    underivableTypes = parent?.underivableTypes ?? _TypeMemo()
    optionalDependencies = parent?.optionalDependencies ?? _TypeMap()
    derivableTypes = parent?.derivableTypes ?? _TypeMap()
    self.allowedCaptives = allowedCaptives
    self.defaultLifetime = defaultLifetime
    self.unclosedScopeHandler = unclosedScopeHandler ?? parent?.unclosedScopeHandler
    self.recorder = recorder
    all = bindings + contributions
    self.table = table ?? _BindingTable(bindings.filter { !$0.isPrivate })
    self.privateBindings =
      privateBindings ?? Dictionary(grouping: bindings.filter(\.isPrivate), by: \.key)
    var byType: [ObjectIdentifier: [AnyBinding]] = [:]
    for contribution in contributions {
      byType[ObjectIdentifier(contribution.key.type), default: []].append(contribution)
    }
    self.contributions = byType
    var groups: [CacheGroup: CacheGroupState] = [:]
    for group in all.compactMap(\.lifetime.group) where groups[group] == nil {
      groups[group] = CacheGroupState(group: group)
    }
    cacheGroups = groups
    self.maximumDepth = Swift.min(maximumDepth, _ThreadState.sanitizerDepthLimit)
    self.warnings = warnings
    hasCompletions = all.contains { $0.completion != nil }
    hasGraphBindings =
      all.contains { $0.lifetime.reach == .resolution } || (parent?.hasGraphBindings ?? false)
    nextContributionIndex = Swift.max(
      (contributions.lazy.compactMap(\.contributionIndex).max() ?? -1) + 1,
      parent?.nextContributionIndex ?? 0)
    for binding in all { binding.link(in: self) }
  }

  /// Every binding in the container, sorted by type name, tag and arguments.
  ///
  /// ```swift
  /// for binding in container.bindings where binding.lifetime == .persistent {
  ///   print(binding.key, binding.location)
  /// }
  /// ```
  public var bindings: [BindingInfo] { sortedBindings.map(\.info) }

  /// The bindings sorted by key, computed when asked (never on the build path).
  var sortedBindings: [AnyBinding] {
    all.map { ($0.key.sortKey, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  func cacheGroupState(for group: CacheGroup) -> CacheGroupState {
    // Created in init for every group a cached binding names.
    cacheGroups[group]!
  }
}

extension Container {
  /// Whether `allowCaptive` acknowledged this consumer keeping this dependency, here or in an
  /// ancestor.
  func allowsCaptive(consumer: BindingKey, dependency: BindingKey) -> Bool {
    let key = CaptiveKey(consumer: consumer, dependency: dependency)
    var current: Container? = self
    while let container = current {
      if container.allowedCaptives.contains(key) { return true }
      current = container.parentContainer
    }
    return false
  }
}
