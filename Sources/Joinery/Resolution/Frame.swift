/// One binding being built in a resolution chain, kept on the stack of the thread resolving it.
///
/// Frames link to their parent, so the chain from the top-level resolve is always at hand for
/// cycle detection and error paths, without allocating anything.
@usableFromInline
struct Frame {
  unowned(unsafe) let binding: AnyBinding
  /// The tag the request asked for when it was served by the untagged binding (fallback).
  let fallbackTag: RequestedTag?
  let parent: UnsafePointer<Frame>?
  @usableFromInline let depth: Int
  /// The binding at the deepest power-of-two depth of the chain so far (from depth
  /// ``fullCycleCheckDepth`` on): what the cycle test compares with below that depth.
  let checkpoint: ObjectIdentifier?
  /// State shared by the whole top-level resolution.
  let root: UnsafeMutablePointer<RootState>

  /// The step this frame stands for in an error path.
  var step: ResolutionStep {
    let info = binding.info
    let requested =
      fallbackTag.map {
        BindingKey(info.key.type, tag: $0.tag, argumentTypes: info.key.argumentTypes)
      }
      ?? info.key
    return ResolutionStep(requested: requested, binding: info)
  }
}

/// State that lives as long as one top-level resolve.
struct RootState {
  /// When the top-level binding is a `graph` binding, its first ``GraphScope/capacity`` shared
  /// instances: uninitialized stack memory of the top-level call, so such a resolve allocates
  /// nothing for them. Slots `0..<graphCount` are initialized. `nil` for other resolutions,
  /// which do not pay for the stack space.
  let graphSlots: UnsafeMutablePointer<GraphScope.Slot>?
  var graphCount = 0
  /// Where further `graph` instances go (all of them when `graphSlots` is `nil`), created on
  /// first use. Owned (one retain), released when the resolution ends; read without reference
  /// counting.
  var graph: Unmanaged<GraphScope>?
  /// The lowest stack address this resolution may reach (``_ThreadState/stackLimit(from:)``):
  /// 0 until read.
  var stackLimit: UInt = 0
  /// Whether the resolution started on the main actor (``Container/resolveOnMainActor(_:)``),
  /// so main-actor factories may run in it.
  var isOnMainActor = false

  /// Runs one top-level resolution with fresh root state, and ends it. `graphSlots`: whether
  /// to keep the first `graph` instances on this call's stack (a `graph` binding at the top).
  @inline(__always)
  static func resolution<R>(
    onMainActor: Bool = false, graphSlots: Bool = false,
    _ body: (UnsafeMutablePointer<RootState>) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    guard graphSlots else { return try resolution(onMainActor: onMainActor, slots: nil, body) }
    return try withUnsafeTemporaryAllocation(
      of: GraphScope.Slot.self, capacity: GraphScope.capacity
    ) { slots throws(ResolutionError) -> R in
      try resolution(onMainActor: onMainActor, slots: slots.baseAddress, body)
    }
  }

  @inline(__always)
  private static func resolution<R>(
    onMainActor: Bool, slots: UnsafeMutablePointer<GraphScope.Slot>?,
    _ body: (UnsafeMutablePointer<RootState>) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    var root = RootState(graphSlots: slots, isOnMainActor: onMainActor)
    defer { root.endGraph() }
    return try withUnsafeMutablePointer(to: &root) { pointer throws(ResolutionError) -> R in
      try body(pointer)
    }
  }

  /// The instance of a `graph` binding already made in this resolution, if any.
  @inline(__always)
  func graphInstance(for binding: AnyBinding) -> UnsafeRawPointer? {
    let wanted = Unmanaged.passUnretained(binding).toOpaque()
    for index in 0..<graphCount {
      let slot = graphSlots.unsafelyUnwrapped + index
      if slot.pointee.binding.toOpaque() == wanted {
        return UnsafeRawPointer(slot.pointee.instance)
      }
    }
    guard let graph else { return nil }
    return graph._withUnsafeGuaranteedRef { $0.instance(for: binding) }
  }

  /// Keeps a copy of `value`, the instance of a `graph` binding, until the resolution ends.
  @inline(__always)
  mutating func storeGraphInstance(
    copyOf value: UnsafeRawPointer, for binding: AnyBinding, copy: Copier
  ) {
    if let graphSlots, graphCount < GraphScope.capacity {
      GraphScope.initialize(graphSlots + graphCount, copyOf: value, for: binding, copy: copy)
      graphCount += 1
      return
    }
    let scope: Unmanaged<GraphScope>
    if let graph {
      scope = graph
    } else {
      scope = Unmanaged.passRetained(GraphScope.make())
      graph = scope
    }
    scope._withUnsafeGuaranteedRef { $0.store(copyOf: value, for: binding, copy: copy) }
  }

  /// Destroys this resolution's `graph` instances, if it made any.
  @inline(__always)
  mutating func endGraph() {
    if graphCount > 0 || graph != nil { destroyGraph() }
  }

  @inline(never)
  mutating func destroyGraph() {
    if let graphSlots { GraphScope.destroy(graphSlots, count: graphCount) }
    graph?.release()
  }
}

/// The `graph` instances of one top-level resolution that do not live on its stack: beyond the
/// first four when a `graph` binding is at the top (``RootState/graphSlots``), else all of them.
///
/// One allocation holds ``capacity`` instances inline (when they fit an ``InstanceBuffer``); a
/// larger graph chains another scope. Instances never move once stored.
final class GraphScope: ManagedBuffer<GraphScope.Header, GraphScope.Slot> {
  struct Header {
    var count = 0
    var next: GraphScope?
  }

  struct Slot {
    var binding: Unmanaged<AnyBinding>
    /// Where the instance is: `buffer` when it fits there, else its own allocation.
    var instance: UnsafeMutableRawPointer
    var buffer: InstanceBuffer
  }

  static let capacity = 4

  static func make() -> GraphScope {
    // `create` returns an instance of the class it is called on.
    unsafeDowncast(create(minimumCapacity: capacity) { _ in Header() }, to: GraphScope.self)
  }

  deinit {
    withUnsafeMutablePointers { header, slots in
      Self.destroy(slots, count: header.pointee.count)
      // Slots hold no references of their own, and the header is a stored property that the
      // base class destroys.
    }
  }

  /// Initializes `slot` with a copy of `value`, the instance of `binding`: in the slot's own
  /// buffer when it fits, else in an allocation of its own.
  @inline(__always)
  static func initialize(
    _ slot: UnsafeMutablePointer<Slot>, copyOf value: UnsafeRawPointer, for binding: AnyBinding,
    copy: Copier
  ) {
    slot.initialize(
      to: Slot(
        binding: Unmanaged.passUnretained(binding), instance: UnsafeMutableRawPointer(slot),
        buffer: InstanceBuffer()))
    let layout = binding.layout
    if layout.size <= MemoryLayout<InstanceBuffer>.size
      && layout.alignment <= MemoryLayout<InstanceBuffer>.alignment
    {
      slot.pointee.instance = withUnsafeMutableBytes(of: &slot.pointee.buffer) {
        $0.baseAddress.unsafelyUnwrapped
      }
    } else {
      slot.pointee.instance = .allocate(byteCount: layout.size, alignment: layout.alignment)
    }
    if layout.isReference {
      // A class reference: one retain, no call through the copier.
      let object = value.load(as: UnsafeRawPointer.self)
      _ = Unmanaged<AnyObject>.fromOpaque(object).retain()
      slot.pointee.instance.storeBytes(of: object, as: UnsafeRawPointer.self)
    } else {
      copy(value, slot.pointee.instance)
    }
  }

  /// Destroys the instances of `count` initialized slots.
  static func destroy(_ slots: UnsafeMutablePointer<Slot>, count: Int) {
    for index in 0..<count {
      let slot = slots + index
      let layout = slot.pointee.binding._withUnsafeGuaranteedRef { $0.layout }
      if layout.isReference {
        let object = slot.pointee.instance.load(as: UnsafeRawPointer.self)
        Unmanaged<AnyObject>.fromOpaque(object).release()
        continue
      }
      layout.destroy(slot.pointee.instance)
      if !isInline(slot) { slot.pointee.instance.deallocate() }
    }
  }

  private static func isInline(_ slot: UnsafeMutablePointer<Slot>) -> Bool {
    withUnsafeMutableBytes(of: &slot.pointee.buffer) { $0.baseAddress == slot.pointee.instance }
  }

  func instance(for binding: AnyBinding) -> UnsafeRawPointer? {
    let wanted = Unmanaged.passUnretained(binding).toOpaque()
    let (found, next): (UnsafeRawPointer?, GraphScope?) = withUnsafeMutablePointers {
      header, slots in
      for index in 0..<header.pointee.count where slots[index].binding.toOpaque() == wanted {
        return (UnsafeRawPointer(slots[index].instance), nil)
      }
      return (nil, header.pointee.next)
    }
    return found ?? next?.instance(for: binding)
  }

  func store(copyOf value: UnsafeRawPointer, for binding: AnyBinding, copy: Copier) {
    // Everything through the raw pointers: no dynamic exclusivity checks on the header.
    let next: GraphScope? = withUnsafeMutablePointers { header, slots in
      if header.pointee.count == Self.capacity {
        if header.pointee.next == nil { header.pointee.next = GraphScope.make() }
        return header.pointee.next
      }
      Self.initialize(slots + header.pointee.count, copyOf: value, for: binding, copy: copy)
      header.pointee.count += 1
      return nil
    }
    next?.store(copyOf: value, for: binding, copy: copy)
  }
}

extension Frame {
  /// The steps from the top-level request down to (and including) `frame`.
  static func steps(to frame: UnsafePointer<Frame>?) -> [ResolutionStep] {
    var steps: [ResolutionStep] = []
    var current = frame
    // A depth-0 frame only marks where a main-actor resolution started.
    while let pointer = current, pointer.pointee.depth > 0 {
      steps.append(pointer.pointee.step)
      current = pointer.pointee.parent
    }
    return steps.reversed()
  }

  /// Throws if `binding` is already being built in this chain, the chain is too deep, or the
  /// thread's stack is nearly used up. Constant work per level, whatever the depth.
  ///
  /// The cycle test compares with every frame of the first ``fullCycleCheckDepth`` levels;
  /// deeper, with the binding at the last power-of-two depth (Brent's method), which finds any
  /// cycle that keeps repeating within a few of its own lengths. The whole chain is walked only
  /// to report an error.
  @inline(__always)
  static func check(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>,
    in container: Container
  ) throws(ResolutionError) {
    let depth = parent.pointee.depth + 1
    if depth > container.maximumDepth || stackIsNearlyExhausted(root: parent.pointee.root) {
      try stop(binding, fallbackTag: fallbackTag, parent: parent, in: container)
    }
    if depth <= fullCycleCheckDepth {
      var current: UnsafePointer<Frame>? = parent
      while let frame = current {
        if frame.pointee.binding === binding {
          throw .cycle(binding, fallbackTag: fallbackTag, parent: parent, in: container)
        }
        current = frame.pointee.parent
      }
    } else if parent.pointee.checkpoint == ObjectIdentifier(binding) {
      throw .cycle(binding, fallbackTag: fallbackTag, parent: parent, in: container)
    }
  }

  /// Levels up to which every frame is compared in the cycle test.
  static let fullCycleCheckDepth = 8

  /// The error for a chain that may go no deeper: a cycle if `binding` is already in it (a
  /// deep cycle the checkpoint has not met yet), else the depth limit.
  @inline(never)
  static func stop(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>,
    in container: Container
  ) throws(ResolutionError) {
    var current: UnsafePointer<Frame>? = parent
    while let frame = current {
      if frame.pointee.binding === binding {
        throw .cycle(binding, fallbackTag: fallbackTag, parent: parent, in: container)
      }
      current = frame.pointee.parent
    }
    throw .depthLimit(
      binding, fallbackTag: fallbackTag, parent: parent,
      stackExhausted: parent.pointee.depth + 1 <= container.maximumDepth, in: container)
  }

  /// Whether the resolving thread is close to the end of its stack: one comparison per level
  /// once the limit is known (read on the first nested level of a resolution, from bounds
  /// read once per thread).
  @inline(__always)
  static func stackIsNearlyExhausted(root: UnsafeMutablePointer<RootState>) -> Bool {
    let position = _ThreadState.stackPosition
    if root.pointee.stackLimit == 0 {
      root.pointee.stackLimit = _ThreadState.stackLimit(from: position)
    }
    return position < root.pointee.stackLimit
  }

  /// Runs `body` with a new frame for `binding` pushed on the chain. A top-level request
  /// (`parent` is `nil`) made while a factory runs on this thread joins that factory's chain.
  @inline(__always)
  static func enter<R>(
    _ binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>?,
    in container: Container,
    graphSlots: Bool = false, _ body: (UnsafePointer<Frame>) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    if let parent = parent ?? _ThreadState.runningFrame {
      try check(binding, fallbackTag: fallbackTag, parent: parent, in: container)
      var frame = Frame(binding: binding, fallbackTag: fallbackTag, parent: parent)
      return try withUnsafePointer(to: &frame) { pointer throws(ResolutionError) in
        try body(pointer)
      }
    }
    return try RootState.resolution(graphSlots: graphSlots) { rootPointer throws(ResolutionError) in
      var frame = Frame(binding: binding, fallbackTag: fallbackTag, root: rootPointer)
      return try withUnsafePointer(to: &frame) { pointer throws(ResolutionError) in
        try body(pointer)
      }
    }
  }

  /// The frame of `binding` below `parent`.
  init(binding: AnyBinding, fallbackTag: RequestedTag?, parent: UnsafePointer<Frame>) {
    self.binding = binding
    self.fallbackTag = fallbackTag
    self.parent = parent
    depth = parent.pointee.depth + 1
    root = parent.pointee.root
    checkpoint =
      depth >= Self.fullCycleCheckDepth && depth & (depth - 1) == 0
      ? ObjectIdentifier(binding) : parent.pointee.checkpoint
  }

  /// The first frame of a resolution (`depth` 1), or a depth-0 marker frame.
  init(
    binding: AnyBinding, fallbackTag: RequestedTag?, root: UnsafeMutablePointer<RootState>,
    depth: Int = 1
  ) {
    self.binding = binding
    self.fallbackTag = fallbackTag
    parent = nil
    self.depth = depth
    self.root = root
    checkpoint = nil
  }

  /// The frame this thread's resolution runs in, for a request that has none at hand.
  @inline(__always)
  static func effective(_ parent: UnsafePointer<Frame>?) -> UnsafePointer<Frame>? {
    parent ?? _ThreadState.runningFrame
  }
}
