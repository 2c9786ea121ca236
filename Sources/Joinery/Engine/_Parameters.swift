public import JoineryEngine

/// How an autowired initializer's parameters are resolved, worked out once when it is bound.
///
/// Swift does not specialize the calls made for each element of a parameter pack: resolving
/// `repeat each Parameter` one generic call at a time costs about 90 instructions a parameter
/// more than a call written for the type. So the parameters are resolved by one non-generic
/// loop instead, each straight into its place in a buffer laid out as the tuple of the
/// parameters, and the tuple is then moved out whole by code that is specialized for it.
/// A parameter whose binding the lookup does not find at once (an optional, a `Provider`, a
/// parent container's binding, a missing one) takes the generic path made with it.
@usableFromInline
final class _Parameters: Sendable {
  /// What finds one parameter's binding: nothing to count references of, so reading it in the
  /// loop costs no retain.
  @frozen @usableFromInline
  struct Lookup: Sendable {
    @usableFromInline let type: Any.Type
    /// The tag's shared box, or `nil` for an untagged parameter: kept alive by the parameter's
    /// `Dependency`, which its generic path holds.
    @usableFromInline let tag: _TagBoxReference?
    @usableFromInline let matching: TagMatching
    /// The parameter's offset in the tuple of the parameters.
    @usableFromInline let offset: Int
  }

  /// What the uncommon paths need.
  @usableFromInline
  struct Paths: Sendable {
    /// The generic path: resolves the parameter as any other request, into its place, and
    /// returns the error if it fails.
    ///
    /// It returns the error rather than throwing it: a stored closure type with a typed error
    /// needs runtime support newer than the deployment floor, and an untyped one would need a
    /// cast back to ``ResolutionError``.
    @usableFromInline let resolve:
      @Sendable (Container, borrowing ResolutionContext, borrowing _TupleBuffer) ->
        ResolutionError?
    /// The parameter's layout, to deinitialize it when a later one fails.
    @usableFromInline let layout: _ValueLayout
  }

  /// Read in the loop without bounds checks or reference counting (``_FrozenBuffer``).
  @usableFromInline let lookups: _FrozenBuffer<Lookup>
  @usableFromInline let paths: [Paths]

  /// The parameters, resolved as `dependencies` say.
  @inlinable
  convenience init<each Parameter>(_ dependencies: repeat Dependency<each Parameter>) {
    var lookups: [Lookup] = []
    var paths: [Paths] = []
    var offset = 0
    for dependency in repeat each dependencies {
      let element = Self.element(dependency, after: offset)
      lookups.append(element.lookup)
      paths.append(element.paths)
      offset = element.end
    }
    self.init(lookups: lookups, paths: paths)
  }

  @usableFromInline
  init(lookups: [Lookup], paths: [Paths]) {
    self.lookups = _FrozenBuffer(count: lookups.count) { lookups[$0] }
    self.paths = paths
  }

  /// The element for `dependency`, placed after `offset` bytes of the tuple (as Swift lays
  /// out a tuple: at the next multiple of its alignment), and the offset of its end.
  @usableFromInline
  static func element<Value>(
    _ dependency: Dependency<Value>, after offset: Int
  ) -> (lookup: Lookup, paths: Paths, end: Int) {
    let alignment = MemoryLayout<Value>.alignment
    let start = (offset + alignment - 1) / alignment * alignment
    let tag = dependency.tag.map { _TagBoxReference(_Unretained($0.box)) }
    let lookup = Lookup(
      type: Value.self, tag: tag, matching: dependency.matching, offset: start)
    let paths = Paths(
      resolve: { container, context, tuple in
        do throws(ResolutionError) {
          tuple.slot(at: start, of: Value.self).initialize(
            to: try container.resolve(Value.self, dependency: dependency, parent: context))
          return nil
        } catch {
          return error
        }
      },
      layout: _ValueLayout(of: Value.self))
    return (lookup, paths, start + MemoryLayout<Value>.size)
  }
}

extension Resolver {
  /// Calls `initializer` with its parameters, resolved as the ``_Parameters`` of the binding
  /// being made say.
  ///
  /// The parameters are found through the resolver's chain, not captured by the factory: a
  /// factory that captures nothing but the initializer is specialized for it where it is
  /// declared, so the initializer's call is inlined.
  @inlinable @inline(__always)
  func call<T, each Parameter>(
    _ initializer: (repeat consuming each Parameter) throws -> T
  ) throws -> T {
    let values = try _withTupleBuffer(of: (repeat each Parameter).self) {
      tuple throws(ResolutionError) in
      // Folds away where the call is specialized: an initializer without parameters reads
      // nothing.
      if _isEmpty(repeat (each Parameter).self) { return }
      try withContext { container, context throws(ResolutionError) in
        try container.resolveParameters(
          into: tuple, single: _count(repeat (each Parameter).self) == 1, parent: context)
      }
    }
    return try initializer(repeat each values)
  }
}

/// How many types `types` holds: a constant where the call is specialized.
@inlinable @inline(__always)
func _count<each T>(_ types: repeat (each T).Type) -> Int {
  var count = 0
  for _ in repeat each types { count += 1 }
  return count
}

extension Container {
  /// Resolves every parameter of the binding `parent` makes into its place in `tuple`; when
  /// one fails, deinitializes those before it and throws.
  @inlinable @inline(__always)
  func resolveParameters(
    into tuple: borrowing _TupleBuffer, single: Bool, parent: borrowing ResolutionContext
  ) throws(ResolutionError) {
    // A factory runs in the frame of its binding (`ResolutionContext.make`), which the
    // container keeps: read without retaining it, nor the parameters it keeps.
    let parameters = parent.frame!.readOwner { _Unretained($0.parameters!) }
    try parameters.with { parameters throws(ResolutionError) in
      // One untagged parameter this container binds (a chain of single dependencies): found
      // here, in the factory, and built without the loop's frame.
      if single, case let lookup = parameters.lookups[0], lookup.tag == nil,
        let found = table.untaggedMember(for: ObjectIdentifier(lookup.type))
      {
        return try found.with { binding throws(ResolutionError) in
          try place(binding, at: lookup.offset, in: tuple, parent: parent, fallbackTag: nil)
        }
      }
      try resolve(parameters, into: tuple, parent: parent)
    }
  }

  /// Resolves each of `parameters` into its place in `tuple`; when one fails, deinitializes
  /// those before it and throws.
  @usableFromInline
  func resolve(
    _ parameters: _Parameters, into tuple: borrowing _TupleBuffer,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) {
    for index in parameters.lookups.indices {
      do throws(ResolutionError) {
        if try !place(parameters.lookups[index], in: tuple, parent: parent) {
          if let error = parameters.paths[index].resolve(self, parent, tuple) { throw error }
        }
      } catch {
        for done in 0..<index {
          tuple.destroy(at: parameters.lookups[done].offset, parameters.paths[done].layout)
        }
        throw error
      }
    }
  }

  /// Resolves a parameter into its place in `tuple` when this container binds it as asked
  /// (with that tag, or its untagged fallback); `false`, with nothing written, when the
  /// generic path must.
  @inlinable @inline(__always)
  func place(
    _ lookup: _Parameters.Lookup, in tuple: borrowing _TupleBuffer,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> Bool {
    guard let tag = lookup.tag else {
      guard let found = table.untaggedMember(for: ObjectIdentifier(lookup.type)) else {
        return false
      }
      try found.with { binding throws(ResolutionError) in
        try place(binding, at: lookup.offset, in: tuple, parent: parent, fallbackTag: nil)
      }
      return true
    }
    guard let found = match(lookup.type, tag: tag, matching: lookup.matching) else {
      return false
    }
    try found.container.with { container throws(ResolutionError) in
      try found.binding.with { binding throws(ResolutionError) in
        guard found.fellBack else {
          return try container.place(
            binding, at: lookup.offset, in: tuple, parent: parent, fallbackTag: nil)
        }
        // A fallback tells the binding the tag it was asked with.
        let requested = BindingTag(box: tag.box.object)
        return try RequestedTag.lending(requested) { requested throws(ResolutionError) in
          try container.place(
            binding, at: lookup.offset, in: tuple, parent: parent, fallbackTag: requested)
        }
      }
    }
    return true
  }

  /// Writes the instance `binding` gives for one request into its place in `tuple`, as
  /// ``instance(of:as:parent:fallbackTag:recordsEdge:)`` returns it.
  @usableFromInline
  func place(
    _ binding: AnyBinding, at offset: Int, in tuple: borrowing _TupleBuffer,
    parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if let recorder { recorder.record(from: parent, to: binding) }
    // A class reference's slot is made here, where its copier is known to capture nothing:
    // one from the layout would be released after every parameter.
    if binding.layout.isReference {
      return try place(
        binding, into: tuple.referenceSlot(at: offset, type: binding.layout.type), parent,
        fallbackTag)
    }
    try place(binding, into: tuple.slot(at: offset, binding.layout), parent, fallbackTag)
  }

  @inline(__always)
  func place(
    _ binding: AnyBinding, into slot: borrowing _InstanceSlot,
    _ parent: borrowing ResolutionContext, _ fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if binding.isReady { return slot.initialize(copying: binding.storage) }
    try fill(binding, into: slot, parent, fallbackTag)
  }
}

extension Container {
  /// The instance of this container's built persistent binding of `type`, if there is one:
  /// what an async factory's parameter reads without awaiting.
  @usableFromInline
  func builtInstance(of type: Any.Type) -> Any? {
    guard let found = table.untaggedMember(for: ObjectIdentifier(type)) else { return nil }
    return found.read { binding -> Any? in
      binding.isReady ? binding.storage.loadAny(binding.layout) : nil
    }
  }
}
