/// What a ``Lazy`` made during a resolution remembers of that resolution's `graph` instances,
/// so that resolving it later closes back-references on the same graph (Swinject's `Lazy`
/// does the same).
///
/// It keeps the instances weakly: a `Lazy` never keeps its graph alive, and once nothing else
/// holds an instance, a later `get()` makes a new one. Only class instances are remembered (a
/// value has no identity to keep). The resolutions the `Lazy` starts remember their own `graph`
/// instances too, so every `Lazy` of one graph keeps seeing the same objects.
final class _GraphMemory: Sendable {
  private struct Entry {
    let binding: AnyBinding
    weak var object: AnyObject?
  }

  private let entries = Protected<[ObjectIdentifier: Entry]>([:])

  /// Remembers the class instances among `root`'s `graph` instances.
  fileprivate func remember(_ root: borrowing _RootState) {
    var found: [(AnyBinding, AnyObject)] = []
    root.forEachGraphObject { binding, object in found.append((binding, object)) }
    guard !found.isEmpty else { return }
    entries.withLock { entries in
      for (binding, object) in found {
        entries[ObjectIdentifier(binding)] = Entry(binding: binding, object: object)
      }
    }
  }

  /// The remembered instances still alive; empty when `target`'s remembered instance is gone.
  ///
  /// A graph rebuilt around its survivors would have them hold the new instance (a child holding
  /// the parent it was rebuilt under, which holds the child): rebuilt from scratch, it makes
  /// no such ring.
  private func living(target: AnyBinding?) -> [(binding: AnyBinding, object: AnyObject)] {
    entries.withLock { entries in
      if let target, let entry = entries[ObjectIdentifier(target)], entry.object == nil {
        return []
      }
      return entries.values.compactMap { entry in entry.object.map { (entry.binding, $0) } }
    }
  }

  /// Resolves `Value` (with `tag`) in a new resolution that starts with the remembered
  /// instances as its `graph` instances, and remembers the ones it adds; says whether the
  /// instance is one of the remembered ones.
  static func resolve<Value>(
    _: Value.Type, tag: BindingTag?, in container: Container, memory: _GraphMemory
  ) throws(ResolutionError) -> (value: Value, isBackReference: Bool) {
    let key = BindingKey(Value.self, boxed: tag)
    let target =
      container.owner(of: key)?.table.binding(for: key)
      ?? container.owner(of: BindingKey(Value.self))?.table.binding(for: BindingKey(Value.self))
    let living = memory.living(target: target)
    let value = try ResolutionContext.marked(container, scope: nil) {
      context throws(ResolutionError) -> Value in
      let root = context.frame.unsafelyUnwrapped.pointee.root
      root.pointee.adopt(memory)
      for (binding, object) in living {
        var reference: AnyObject = object
        withUnsafeMutablePointer(to: &reference) { pointer in
          root.pointee.storeGraphInstance(
            copyOf: _InstanceSlot(address: UnsafeMutableRawPointer(pointer), of: AnyObject.self),
            for: binding)
        }
      }
      guard let tag else { return try container.resolve(Value.self, parent: context) }
      return try container.resolve(
        Value.self, tag: tag, matching: .allowingFallback, parent: context)
    }
    guard type(of: value as Any) is AnyObject.Type else { return (value, false) }
    let object = value as AnyObject
    return (value, living.contains { $0.object === object })
  }
}

extension _RootState {
  /// This resolution's memory for the `Lazy` values made in it, created on first use.
  mutating func graphMemory() -> _GraphMemory {
    if let memory { return memory.takeUnretainedValue() }
    let made = _GraphMemory()
    memory = Unmanaged.passRetained(made)
    return made
  }

  /// Makes `memory` this resolution's: its `graph` instances are remembered there when it ends.
  mutating func adopt(_ memory: _GraphMemory) {
    self.memory?.release()
    self.memory = Unmanaged.passRetained(memory)
  }

  /// Remembers the `graph` instances in the memory, if a `Lazy` asked for one, and lets it go.
  @inline(__always)
  mutating func endMemory() {
    if memory != nil { rememberGraph() }
  }

  @inline(never)
  private mutating func rememberGraph() {
    guard let memory else { return }
    memory._withUnsafeGuaranteedRef { $0.remember(self) }
    memory.release()
    self.memory = nil
  }

  /// Calls `body` with each `graph` instance that is a class instance.
  func forEachGraphObject(_ body: (AnyBinding, AnyObject) -> Void) {
    func visit(_ slot: UnsafeMutablePointer<_GraphScope.Slot>) {
      let binding = slot.pointee.binding.takeUnretainedValue()
      guard binding.layout.isReference else { return }
      let object = slot.pointee.instance.load(as: UnsafeRawPointer.self)
      body(binding, Unmanaged<AnyObject>.fromOpaque(object).takeUnretainedValue())
    }
    if let graphSlots {
      for index in 0..<graphCount { visit(graphSlots + index) }
    }
    var scope = graph?.takeUnretainedValue()
    while let current = scope {
      scope = current.forEachSlot(visit)
    }
  }
}

extension ResolutionContext {
  /// The memory of the resolution this request belongs to (or that runs on this thread), for a
  /// `Lazy` made in it; `nil` for a request made outside any resolution.
  func graphMemory() -> _GraphMemory? {
    joined().frame?.pointee.root.pointee.graphMemory()
  }
}

extension _GraphScope {
  /// Calls `body` with each initialized slot of this scope; returns the next scope of the chain.
  func forEachSlot(_ body: (UnsafeMutablePointer<Slot>) -> Void) -> _GraphScope? {
    withUnsafeMutablePointers { header, slots in
      for index in 0..<header.pointee.count { body(slots + index) }
      return header.pointee.next
    }
  }
}
