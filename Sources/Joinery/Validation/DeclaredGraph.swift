/// What validators see: the bindings that won (after overrides), the frozen table over them,
/// and every declared dependency resolved once — built in time linear in bindings plus edges,
/// with no dictionary.
struct DeclaredGraph {
  let bindings: [AnyBinding]
  let table: _BindingTable
  let allowedCaptives: [CaptiveKey: String]
  let requiresExactTags: Bool
  /// The edges of binding `i` are `edgeList[edgeStart[i]..<edgeStart[i + 1]]`.
  private let edgeStart: [Int]
  private let edgeList: [Edge]
  /// The positions of the forwarding bindings, in order.
  let forwards: [Int]
  /// Whether some binding is async or bound to the main actor: what a dependency's isolation
  /// can only then differ from its consumer's.
  let hasIsolatedBindings: Bool

  struct Edge {
    let dependency: DeclaredDependency
    /// The position of the binding that serves it, or `nil` when nothing does.
    var target: Int? { storedTarget < 0 ? nil : Int(storedTarget) }
    /// Whether a tagged dependency is served by the untagged binding.
    let fellBack: Bool
    /// How the dependency is resolved later, when taken as a `Provider` or `Lazy`.
    ///
    /// `nil` when it is resolved as the binding is built. A deferred dependency cannot close a
    /// cycle or hold a captive instance.
    let deferral: Deferral?
    var isDeferred: Bool { deferral != nil }
    /// Whether an ancestor container serves it (for a child container's bindings).
    let isExternal: Bool
    /// Whether the dependency is an optional (`T?`): served by `T` if bound, else `nil`, so a
    /// missing `T` is no error.
    let isOptional: Bool
    /// The position of a binding another module keeps private that would serve it: the
    /// dependency is refused, not missing.
    var refused: Int? { storedRefused < 0 ? nil : Int(storedRefused) }
    // Positions as 32 bits, -1 for none: every declared dependency is an edge, and a smaller
    // edge is cheaper to append.
    private let storedTarget: Int32
    private let storedRefused: Int32

    init(
      dependency: DeclaredDependency, target: Int?, fellBack: Bool, deferral: Deferral?,
      isExternal: Bool, isOptional: Bool, refused: Int?
    ) {
      self.dependency = dependency
      storedTarget = target.map { Int32($0) } ?? -1
      self.fellBack = fellBack
      self.deferral = deferral
      self.isExternal = isExternal
      self.isOptional = isOptional
      storedRefused = refused.map { Int32($0) } ?? -1
    }
  }

  /// How a deferred dependency is made later (a byte: edges are many, and copied as they grow).
  enum Deferral {
    /// By a `Provider`, which can also await it (`getAsync()`).
    case awaitable
    /// By a `Lazy`, which reads synchronously only.
    case synchronousOnly
  }

  /// The container a child is built on, whose bindings serve what the child does not bind.
  let parent: Container?
  /// The bindings only their own module's bindings may depend on, by key (not in `table`).
  let privateBindings: [BindingKey: [AnyBinding]]

  init(
    _ bindings: [AnyBinding], table: _BindingTable, allowedCaptives: [CaptiveKey: String],
    requiresExactTags: Bool, parent: Container? = nil,
    privateBindings: [BindingKey: [AnyBinding]] = [:]
  ) {
    self.bindings = bindings
    self.table = table
    self.privateBindings = privateBindings
    self.parent = parent
    self.allowedCaptives = allowedCaptives
    self.requiresExactTags = requiresExactTags
    var declaredCount = 0
    for (position, binding) in bindings.enumerated() {
      binding.position = position
      declaredCount += binding.dependencies?.count ?? 0
    }
    var edgeStart: [Int] = []
    var edgeList: [Edge] = []
    var forwards: [Int] = []
    var hasIsolatedBindings = false
    edgeStart.reserveCapacity(bindings.count + 1)
    // Reserved once: appending an edge at a time copies the list as it grows.
    edgeList.reserveCapacity(declaredCount)
    let scopeFactoryKey = BindingKey(ScopeFactory.self, boxed: nil)
    let referenceKey = BindingKey(ContainerReference.self, boxed: nil)
    func isOptional(_ type: Any.Type) -> Bool { _isOptionalType(type) }
    // What serves `dependency` of `consumer` in this container: its binding, else (for a tag
    // that may fall back) the untagged one; a binding another module keeps private is refused.
    func visible(
      _ key: BindingKey, from consumer: AnyBinding
    ) -> (binding: AnyBinding?, refused: AnyBinding?) {
      Self.visible(key, from: consumer, table: table, privateBindings: privateBindings)
    }
    func serving(
      _ dependency: DeclaredDependency, of consumer: AnyBinding
    ) -> (binding: AnyBinding?, fellBack: Bool) {
      if let binding = visible(dependency.key, from: consumer).binding { return (binding, false) }
      guard dependency.key.tag != nil, dependency.matching.allowsFallback else {
        return (nil, false)
      }
      let untagged = visible(
        BindingKey(dependency.key.type, boxed: nil, argumentTypes: dependency.key.argumentTypes),
        from: consumer
      ).binding
      return (untagged, untagged != nil)
    }
    for (position, binding) in bindings.enumerated() {
      edgeStart.append(edgeList.count)
      if binding.forwardTargetKey != nil {
        forwards.append(position)
      } else if binding.isAsync {
        hasIsolatedBindings = true
      }
      if binding.isMainActor { hasIsolatedBindings = true }
      for declaredAsWritten in binding.dependencies ?? [] {
        // Every container serves its scope factory and a reference to itself: no binding to
        // find.
        if declaredAsWritten.key == scopeFactoryKey || declaredAsWritten.key == referenceKey {
          continue
        }
        // `T?` depends on `T` when it is bound, and on nothing when it is not.
        // A conformance lookup costs hundreds of instructions: only optionals are asked.
        let optional =
          isOptional(declaredAsWritten.key.type)
          ? declaredAsWritten.key.type as? any _OptionalDependency.Type : nil
        let declared =
          optional.map {
            DeclaredDependency(
              key: BindingKey($0.wrappedType, boxed: declaredAsWritten.key.tag),
              matching: declaredAsWritten.matching)
          } ?? declaredAsWritten
        var (served, fellBack) = serving(declared, of: binding)
        // A Provider or Lazy no binding serves is derived from the binding it wraps, used later:
        // not a cycle edge. Asked only then, as a resolve does: a conformance lookup costs
        // hundreds of instructions, and most dependencies are bound.
        let derivable =
          served == nil && TypeName.isJoineryType(declared.key.type)
          ? declared.key.type as? any DerivedFromContainer.Type : nil
        var dependency = declared
        if let derivable {
          dependency = DeclaredDependency(
            key: derivable.wrappedKey(of: declared.key), matching: declared.matching)
          (served, fellBack) = serving(dependency, of: binding)
          // A Provider may make instances of a binding with runtime arguments
          // (`get(arguments:)`): such a binding serves it too.
          if served == nil && dependency.key.argumentTypes == nil {
            served = table.entry(for: ObjectIdentifier(dependency.key.type))?.withArguments.first {
              $0.key.tag == dependency.key.tag
            }
          }
        }
        // A Provider or Lazy of a binding its consumer's module keeps private is served: it
        // makes that very binding later (`serving` found no other module's private one).
        // In a child container, what an ancestor binds is satisfied there.
        let external =
          served == nil
          && (parent?.binds(dependency.key) == true
            || (dependency.key.tag != nil && dependency.matching.allowsFallback
              && parent?.binds(BindingKey(dependency.key.type, boxed: nil)) == true))
        edgeList.append(
          Edge(
            dependency: dependency, target: served?.position, fellBack: fellBack,
            deferral: derivable.map { $0.canAwait ? .awaitable : .synchronousOnly },
            isExternal: external, isOptional: optional != nil,
            refused: served == nil && !external && !privateBindings.isEmpty
              ? visible(dependency.key, from: binding).refused?.position : nil))
      }
    }
    edgeStart.append(edgeList.count)
    self.edgeStart = edgeStart
    self.edgeList = edgeList
    self.forwards = forwards
    self.hasIsolatedBindings = hasIsolatedBindings
  }

  /// The declared dependencies of the binding at `position`.
  func edges(of position: Int) -> ArraySlice<Edge> {
    edgeList[edgeStart[position]..<edgeStart[position + 1]]
  }

  /// Where the edges of the binding at `position` are in the edge list: for walks that read
  /// single fields (``immediateTarget(ofEdge:)``) instead of copying edges.
  func edgeIndices(of position: Int) -> Range<Int> {
    edgeStart[position]..<edgeStart[position + 1]
  }

  /// The position of the binding that serves edge `edge` (an index from
  /// ``edgeIndices(of:)``) when its consumer is made, or `nil` when nothing here serves it or it
  /// is deferred (a `Provider` or `Lazy`): what cycles and captive dependencies follow.
  func immediateTarget(ofEdge edge: Int) -> Int? {
    edgeList[edge].isDeferred ? nil : edgeList[edge].target
  }

  /// The position of the binding whose instance the consumer keeps through edge `edge`.
  ///
  /// That is the target of an edge resolved as the consumer is built, and of a `Lazy` one (a
  /// `Lazy` keeps what it first made, for as long as its consumer lives); `nil` for a
  /// `Provider` (a new request each time) or when nothing here serves it. What captive
  /// dependencies follow.
  func keptTarget(ofEdge edge: Int) -> Int? {
    edgeList[edge].deferral == .awaitable ? nil : edgeList[edge].target
  }

  /// Whether edge `edge` is a `Lazy`.
  func isLazy(edge: Int) -> Bool { edgeList[edge].deferral == .synchronousOnly }

  /// What edge `edge` (an index from ``edgeIndices(of:)``) asks for.
  func dependency(ofEdge edge: Int) -> DeclaredDependency {
    edgeList[edge].dependency
  }

  /// Whether the binding at `position` declares dependencies.
  func hasEdges(_ position: Int) -> Bool {
    edgeStart[position] != edgeStart[position + 1]
  }

  /// Whether the binding at `position` forwards to another.
  func isForward(_ position: Int) -> Bool {
    forwards.isEmpty ? false : bindings[position].forwardTargetKey != nil
  }

  /// The bindings of one type, for near misses.
  func bindings(ofType type: Any.Type) -> [AnyBinding] {
    table.entry(for: ObjectIdentifier(type))?.allMembers ?? []
  }

  /// The binding of exactly `key` here, or else in the nearest ancestor that binds it.
  func binding(for key: BindingKey) -> AnyBinding? {
    table.binding(for: key) ?? parent?.lookup(key)?.binding
  }

  /// The binding of exactly `key` that `consumer` sees: one for everyone, or one its own module
  /// keeps private; else `refused`, a binding another module keeps private.
  func visible(
    _ key: BindingKey, from consumer: AnyBinding
  ) -> (binding: AnyBinding?, refused: AnyBinding?) {
    Self.visible(key, from: consumer, table: table, privateBindings: privateBindings)
  }

  static func visible(
    _ key: BindingKey, from consumer: AnyBinding, table: _BindingTable,
    privateBindings: [BindingKey: [AnyBinding]]
  ) -> (binding: AnyBinding?, refused: AnyBinding?) {
    if let binding = table.binding(for: key) { return (binding, nil) }
    guard !privateBindings.isEmpty, let candidates = privateBindings[key] else {
      return (nil, nil)
    }
    if let module = consumer.module, let own = candidates.first(where: { $0.module === module }) {
      return (own, nil)
    }
    return (nil, candidates[0])
  }

  /// Whether edge `edge` asks for a binding another module keeps private: the position of that
  /// binding.
  func refusedTarget(ofEdge edge: Int) -> Int? { edgeList[edge].refused }

  /// Every binding of `type` here and in the ancestors, nearest first: what a report names
  /// when no binding has the exact key asked for.
  func bindingsInChain(ofType type: Any.Type) -> [AnyBinding] {
    var found = bindings(ofType: type)
    var current = parent
    while let container = current {
      found += container.table.entry(for: ObjectIdentifier(type))?.allMembers ?? []
      current = container.parentContainer
    }
    return found
  }

  /// The binding a forward ends at, or the binding itself.
  func lifetimeOwner(of position: Int) -> AnyBinding {
    guard isForward(position), let target = edges(of: position).first?.target else {
      return bindings[position]
    }
    return bindings[target]
  }
}
