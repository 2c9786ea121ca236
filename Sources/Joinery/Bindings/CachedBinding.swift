import Synchronization

/// Like persistent, but dropped when its cache group is reset.
// `instance` and `generation` are only touched holding `gate`.
final class CachedBinding<T>: Binding<T>, CacheMember, @unchecked Sendable {
  let factory: Factory<T>
  let gate = CreationGate()
  /// Guarded by `gate`.
  @exclusivity(unchecked) private var instance: T?
  /// The group generation `instance` belongs to; guarded by `gate`.
  @exclusivity(unchecked) private var generation: UInt64 = 0
  /// Set once by `link(in:)`; the container owns the group.
  private(set) unowned(unsafe) var group: CacheGroupState!

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, factory: @escaping Factory<T>
  ) {
    self.factory = factory
    super.init(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride)
  }

  override var creatingThread: UInt { gate.owner.load(ordering: .relaxed) }

  override func link(in container: Container) {
    group = container.cacheGroupState(for: lifetime.group ?? .default)
    group.add(self)
  }

  override func resolve(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    if let parent {
      try Frame.check(self, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    return try gate.withLock(
      for: self, fallbackTag: fallbackTag, parent: parent, in: container
    ) { () throws(ResolutionError) -> T in
      let current = group.generation.load(ordering: .acquiring)
      if let instance, generation == current { return instance }
      instance = nil
      let made = try run(factory, in: container, parent: parent, fallbackTag: fallbackTag)
      instance = made
      generation = current
      return made
    }
  }

  /// Puts an instance in, as if the factory had made it now.
  func store(_ value: T, in container: Container) throws(ResolutionError) {
    try gate.withLock(for: self, fallbackTag: nil, parent: nil, in: container) {
      instance = value
      generation = group.generation.load(ordering: .acquiring)
    }
  }

  func dropInstanceIfIdle() {
    _ = gate.ifAvailable { instance = nil }
  }
}

/// A binding that belongs to a cache group.
protocol CacheMember: AnyObject, Sendable {
  func dropInstanceIfIdle()
}

/// The instances of one cache group in one container: a generation number that a reset bumps,
/// and the members to drop.
final class CacheGroupState: Sendable {
  let group: CacheGroup
  let generation = Atomic<UInt64>(1)
  private let members = Protected<[any CacheMember]>([])

  init(group: CacheGroup) { self.group = group }

  func add(_ member: any CacheMember) {
    members.withLock { $0.append(member) }
  }

  /// Makes every member build anew on its next resolve and drops the instances no thread is
  /// using right now. Never blocks on a running factory.
  func reset() {
    generation.add(1, ordering: .releasing)
    for member in members.withLock({ $0 }) { member.dropInstanceIfIdle() }
  }
}
