import Synchronization

/// One instance per container, created once; read without a lock once it exists.
// `instance` is written once under `gate` and published by `isReady` (release/acquire).
final class PersistentBinding<T>: Binding<T>, @unchecked Sendable {
  let factory: Factory<T>
  let gate = CreationGate()
  let isReady = Atomic<Bool>(false)
  /// Written once, under `gate`, before `isReady` is set with release ordering; read only after
  /// `isReady` was seen with acquire ordering.
  @exclusivity(unchecked) var instance: T?

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

  override func resolve(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    if isReady.load(ordering: .acquiring) { return instance.unsafelyUnwrapped }
    return try create(in: container, parent: parent, fallbackTag: fallbackTag)
  }

  /// The instance if it was created already.
  var existingInstance: T? {
    isReady.load(ordering: .acquiring) ? instance : nil
  }

  @inline(never)
  private func create(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    if let parent {
      try Frame.check(self, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    return try gate.withLock(
      for: self, fallbackTag: fallbackTag, parent: parent, in: container
    ) { () throws(ResolutionError) -> T in
      if isReady.load(ordering: .acquiring) { return instance.unsafelyUnwrapped }
      let made = try run(factory, in: container, parent: parent, fallbackTag: fallbackTag)
      instance = made
      isReady.store(true, ordering: .releasing)
      return made
    }
  }
}

/// A new instance on every resolve; the container keeps nothing.
// Immutable: only a @Sendable factory.
final class EphemeralBinding<T>: Binding<T>, @unchecked Sendable {
  let factory: Factory<T>

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, factory: @escaping Factory<T>
  ) {
    self.factory = factory
    super.init(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride)
  }

  override func resolve(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    try run(factory, in: container, parent: parent, fallbackTag: fallbackTag)
  }
}

/// One instance per top-level resolve, shared by everything built during it.
// Immutable: instances live in the resolving thread's root frame, not here.
final class GraphBinding<T>: Binding<T>, @unchecked Sendable {
  let factory: Factory<T>

  init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, factory: @escaping Factory<T>
  ) {
    self.factory = factory
    super.init(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride)
  }

  override func resolve(
    in container: Container, parent: UnsafePointer<Frame>?, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    if let parent, let scope = parent.pointee.root.pointee.graph,
      let existing = scope.instance(for: self)
    {
      // Stored by this binding, so it is a T.
      return existing as! T
    }
    return try Frame.enter(self, fallbackTag: fallbackTag, parent: parent, in: container) {
      frame throws(ResolutionError) in
      let made = try invoke(factory, frame: frame, in: container)
      // The top-level instance is never asked for again in its own resolution.
      if frame.pointee.parent != nil {
        let root = frame.pointee.root
        if root.pointee.graph == nil { root.pointee.graph = GraphScope() }
        root.pointee.graph.unsafelyUnwrapped.store(made, for: self)
      }
      return made
    }
  }
}
