public import JoineryEngine

/// The one resolution path that ``Container`` and ``Resolver`` share.
///
/// `parent` is the frame of the binding whose factory asks, or `nil` for a top-level request.
/// Stack space for building one instance outside a specialized call: room for a class
/// reference, a protocol existential (five words) and most small structs.
/// Which binding serves a tagged request: found without reference counting, since the
/// container chain owns every binding for as long as a resolve can run.
@usableFromInline
struct _TaggedMatch {
  @usableFromInline let binding: _Unretained<AnyBinding>
  /// The container that declared `binding`: the one its dependencies come from.
  @usableFromInline let container: _Unretained<Container>
  /// Whether an untagged binding serves the tagged request.
  @usableFromInline let fellBack: Bool

  @inlinable
  init(binding: AnyBinding, container: Container, fellBack: Bool) {
    self.init(binding: _Unretained(binding), container: _Unretained(container), fellBack: fellBack)
  }

  @inlinable
  init(binding: _Unretained<AnyBinding>, container: _Unretained<Container>, fellBack: Bool) {
    self.binding = binding
    self.container = container
    self.fellBack = fellBack
  }
}

/// A tag box not retained by its holder, compared by identity first.
///
/// What a `Dependency`'s request matches tags with: only ever a match key, whose owner (the
/// binding holding the `Dependency`) keeps the box alive.
@usableFromInline @frozen
struct _TagBoxReference: Hashable, Sendable {
  @usableFromInline let box: _Unretained<_TagBox>

  @inlinable init(_ box: _Unretained<_TagBox>) { self.box = box }

  @inlinable static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box.isIdentical(to: rhs.box) || lhs.box.read { l in rhs.box.read { l == $0 } }
  }

  @inlinable func hash(into hasher: inout Hasher) {
    box.read { hasher.combine($0.hash) }
  }
}

extension ResolutionError: _TypedFailure {
  @usableFromInline package static func _unexpected() -> ResolutionError { unexpected() }
}

extension Container {
  /// The instance `binding` gives for one request, as the `T` it was declared for.
  @inlinable @inline(__always)
  func instance<T>(
    of binding: AnyBinding, as _: T.Type, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?, recordsEdge: Bool = true
  ) throws(ResolutionError) -> T {
    if recordsEdge, let recorder { recorder.record(from: parent, to: binding) }
    // A built persistent instance (or a forward's converted one) never changes: no lock.
    if binding.isReady {
      return binding.storage.load(as: T.self)
    }
    // A class reference is built by one non-generic function for every type; specialized, the
    // test folds away, and unspecialized the binding's layout answers it.
    #if JOINERY_INTERNAL_CHECKS
      // Unspecialized, whether `T` is one class reference is read from the binding's layout.
      _internalCheck(
        binding.layout.type == T.self, "\(binding.key) resolved as \(T.self)")
    #endif
    if _isSingleReference(T.self, recorded: binding.layout.isReference) {
      // The object comes back as the bits of a +1 reference, moved (not copied) into `T`:
      // where this code is not specialized (a parameter pack, `Provider`), a bit-cast of an
      // `AnyObject` copies through the value witness, one retain and one release more.
      let reference = try makeReference(of: binding, parent: parent, fallbackTag: fallbackTag)
      return _InstanceSlot.takeReference(reference, as: T.self)
    }
    return try makeInstance(of: binding, as: T.self, parent: parent, fallbackTag: fallbackTag)
  }

  /// The path that may build, for a bound type that is one class reference: not generic, so
  /// one copy serves every class, specialized or not, and no generic metadata is asked for.
  ///
  /// Returns the bits of the object's reference: one reference the caller takes over.
  @usableFromInline @inline(never)
  func makeReference(
    of binding: AnyBinding, parent: borrowing ResolutionContext, fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> UInt {
    // The bound type is the requested one: the table is keyed by it.
    try _InstanceSlot.buildingReference(type: binding.layout.type) { out throws(ResolutionError) in
      try fill(binding, into: out, parent, fallbackTag)
    }
  }

  /// The path that may build: kept out of line so that the fast path above needs no more
  /// generic metadata than `T` itself (``_InstanceSlot/building(_:layout:_:)``).
  @inlinable @inline(never)
  func makeInstance<T>(
    of binding: AnyBinding, as _: T.Type, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    try _InstanceSlot.building(T.self, layout: binding.layout) { out throws(ResolutionError) in
      try fill(binding, into: out, parent, fallbackTag)
    }
  }

  /// Writes the instance for one request of `binding` into `slot`: a transient binding's
  /// instance still alive is copied out first, without a call through the binding's class.
  @inlinable @inline(__always)
  func fill(
    _ binding: AnyBinding, into slot: borrowing _InstanceSlot,
    _ parent: borrowing ResolutionContext, _ fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    if binding.isWeaklyShared {
      try binding.checkAliveCapture(parent: parent, fallbackTag: fallbackTag, in: self)
      if binding.copyAlive(into: slot) { return }
    }
    try build(binding, into: slot, parent, fallbackTag)
  }

  /// Has `binding` write the instance for one request into `slot`.
  @inlinable @inline(__always)
  func build(
    _ binding: AnyBinding, into slot: borrowing _InstanceSlot,
    _ parent: borrowing ResolutionContext, _ fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try binding.resolveKind.resolve(
      binding, into: slot, in: self, parent: parent, fallbackTag: fallbackTag)
  }

  @inlinable @inline(__always)
  func resolve<T>(_ type: T.Type, parent: borrowing ResolutionContext) throws(ResolutionError) -> T
  {
    guard let found = table.untaggedMember(for: ObjectIdentifier(T.self)) else {
      return try resolveUnbound(T.self, parent: parent)
    }
    // The container keeps its bindings alive: no reference counting on the shared binding.
    return try found.with { binding throws(ResolutionError) -> T in
      try instance(of: binding, as: T.self, parent: parent, fallbackTag: nil)
    }
  }

  @inlinable @inline(__always)
  func resolve<T, Tag: Hashable & Sendable>(
    _ type: T.Type, tag: Tag, matching: TagMatching, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    // The resolve forms' default tag, `nil as BindingTag?`: an untagged request, or a
    // `BindingTag` the caller already has. The test folds away in specialized code.
    if Tag.self == BindingTag?.self {
      guard let tag = _identityCast(tag, to: BindingTag?.self) else {
        return try resolve(T.self, parent: parent)
      }
      return try resolve(T.self, presentTag: tag, matching: matching, parent: parent)
    }
    // One rule for optional tags, as `bind` has: `.some(x)` is the tag `x`, `nil` no tag.
    if _isOptionalType(Tag.self) {
      return try resolve(
        T.self, flattenedTag: _flattenedTag(tag), matching: matching, parent: parent)
    }
    return try resolve(T.self, presentTag: tag, matching: matching, parent: parent)
  }

  /// A request with a tag, neither optional nor the default. (Not part of the function above:
  /// a call of a function to itself is not inlined, and unspecialized callers need it inlined.)
  @inlinable @inline(__always)
  func resolve<T, Tag: Hashable & Sendable>(
    _ type: T.Type, presentTag tag: Tag, matching: TagMatching,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    guard let found = match(T.self, tag: tag, matching: matching) else {
      return try resolveUnbound(T.self, tag: BindingTag(tag), matching: matching, parent: parent)
    }
    return try found.container.with { container throws(ResolutionError) -> T in
      try container.instance(of: found, as: T.self, tag: tag, parent: parent)
    }
  }

  /// Resolves one parameter the way its `Dependency` says.
  ///
  /// The tag's box is read without retaining it (the binding that holds `dependency` owns it,
  /// and the container keeps the binding): the request compares it by identity first, since a
  /// build shares one box per tag value.
  @inlinable @inline(__always)
  func resolve<T>(
    _ type: T.Type, dependency: borrowing Dependency<T>, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    guard let box = dependency.tag.map({ _Unretained($0.box) }) else {
      return try resolve(T.self, parent: parent)
    }
    let matching = dependency.matching
    guard let found = match(T.self, tag: _TagBoxReference(box), matching: matching) else {
      return try resolveUnbound(
        T.self, tag: BindingTag(box: box.object), matching: matching, parent: parent)
    }
    return try found.container.with { container throws(ResolutionError) -> T in
      guard found.fellBack else {
        return try found.binding.with { binding throws(ResolutionError) -> T in
          try container.instance(of: binding, as: T.self, parent: parent, fallbackTag: nil)
        }
      }
      // A fallback tells the binding the tag it was asked with, as the tag's own value.
      return try container.instance(
        of: found, as: T.self, tag: BindingTag(box: box.object), parent: parent)
    }
  }

  /// A tagged request for a type nothing serves: a `Provider` or `Lazy`, or a missing binding.
  @usableFromInline @inline(never)
  func resolveUnbound<T>(
    _ type: T.Type, tag: BindingTag, matching: TagMatching, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    if !privateBindings.isEmpty,
      let binding = privateBinding(
        for: BindingKey(T.self, boxed: tag), allowsFallback: matching.allowsFallback,
        parent: parent)
    {
      return try instance(of: binding, as: T.self, parent: parent, fallbackTag: nil)
    }
    if let derivation = derivation(
      of: T.self, tag: tag, allowsFallback: matching.allowsFallback, parent: parent)
    {
      return derive(T.self, derivation, tag: tag, parent: parent)
    }
    // `_isOptional` reads the metadata's kind; the conformance lookup only runs for an
    // optional, saving a failed request for any other type a lookup in the runtime's cache.
    if _isOptional(T.self), let optional = optionalDependency(T.self) {
      // Served by the wrapped type if bound, else nil: a concrete `Optional<Wrapped>`.
      return try Self.resolveIfBound(
        optional, as: T.self, in: self, tag: tag, matching: matching, parent: parent)
    }
    throw missing(
      BindingKey(T.self, boxed: tag), triedFallback: matching.allowsFallback, parent: parent)
  }

  /// The instance of a tagged match, telling the binding which tag a fallback was asked with.
  @inlinable @inline(__always)
  func instance<T, Tag: Hashable & Sendable>(
    of found: _TaggedMatch, as _: T.Type, tag: Tag, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    try found.binding.with { binding throws(ResolutionError) -> T in
      guard found.fellBack else {
        return try instance(of: binding, as: T.self, parent: parent, fallbackTag: nil)
      }
      return try RequestedTag.lending(tag) { tag throws(ResolutionError) -> T in
        try instance(of: binding, as: T.self, parent: parent, fallbackTag: tag)
      }
    }
  }

  /// The binding that serves a tagged request, and the container that declared it.
  ///
  /// The rule: this container's binding with exactly that tag; else an ancestor's with exactly
  /// that tag (a tagged binding anywhere wins over a fallback); else, unless `matching` is exact,
  /// this container's untagged binding; else the same question to the parent. Generic in the
  /// tag only, so that an unspecialized caller asks the runtime for no metadata of `T?`.
  ///
  /// A root container answers inline; a child asks ``matchInChain(_:tag:matching:)``.
  @inlinable @inline(__always)
  func match<Tag: Hashable & Sendable>(
    _ type: Any.Type, tag: Tag, matching: TagMatching
  ) -> _TaggedMatch? {
    guard parentContainer == nil else { return matchInChain(type, tag: tag, matching: matching) }
    guard let slot = table.slot(for: ObjectIdentifier(type)) else { return nil }
    // A type bound once, untagged, has no entry: its only binding is the untagged one.
    if let entry = table.entry(at: slot), let binding = entry.read({ $0.member(tag: tag) }) {
      return _TaggedMatch(binding: binding, container: self, fellBack: false)
    }
    guard matching.allowsFallback, let untagged = table.untaggedMember(at: slot) else {
      return nil
    }
    return _TaggedMatch(binding: untagged, container: _Unretained(self), fellBack: true)
  }

  /// ``match(_:tag:matching:)`` for a container with ancestors: the nearest container with
  /// exactly that tag, else (unless exact) the nearest with an untagged binding.
  ///
  /// A loop, not a recursion, so a chain of thousands of children costs no stack.
  @inlinable @inline(never)
  func matchInChain<Tag: Hashable & Sendable>(
    _ type: Any.Type, tag: Tag, matching: TagMatching
  ) -> _TaggedMatch? {
    let identity = ObjectIdentifier(type)
    var current: Container? = self
    while let container = current {
      if let slot = container.table.slot(for: identity),
        let entry = container.table.entry(at: slot),
        let binding = entry.read({ $0.member(tag: tag) })
      {
        return _TaggedMatch(binding: binding, container: container, fellBack: false)
      }
      current = container.parentContainer
    }
    guard matching.allowsFallback else { return nil }
    current = self
    while let container = current {
      if let untagged = container.table.untaggedMember(for: identity) {
        return _TaggedMatch(binding: untagged, container: _Unretained(container), fellBack: true)
      }
      current = container.parentContainer
    }
    return nil
  }

  @inlinable @inline(__always)
  func resolveIfBound<T>(
    _ type: T.Type, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T? {
    if let found = table.untaggedMember(for: ObjectIdentifier(T.self)) {
      return try found.with { binding throws(ResolutionError) -> T in
        try instance(of: binding, as: T.self, parent: parent, fallbackTag: nil)
      }
    }
    if let owner = parentContainer?.untaggedOwner(of: T.self) {
      return try owner.with { owner throws(ResolutionError) -> T? in
        try owner.resolveIfBound(T.self, parent: parent)
      }
    }
    guard let entry = table.storedEntry(for: ObjectIdentifier(T.self)) else {
      return try resolveUnboundIfBound(T.self, parent: parent)
    }
    // Bound only with runtime arguments is a mistake to report; only tagged is an absence.
    if entry.withArguments.isEmpty { return nil }
    throw missing(BindingKey(T.self), triedFallback: false, parent: parent)
  }

  @inlinable @inline(__always)
  func resolveIfBound<T, Tag: Hashable & Sendable>(
    _ type: T.Type, tag: Tag, matching: TagMatching, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T? {
    if _isOptionalType(Tag.self) {
      return try resolveIfBound(
        T.self, flattenedTag: _flattenedTag(tag), matching: matching, parent: parent)
    }
    guard let found = match(T.self, tag: tag, matching: matching) else { return nil }
    return try found.container.with { container throws(ResolutionError) -> T in
      try container.instance(of: found, as: T.self, tag: tag, parent: parent)
    }
  }

  /// A request with runtime arguments from a public form, whose `tag` is the default
  /// (`nil as BindingTag?`, folded away in specialized code), a value or an optional.
  @inlinable @inline(__always)
  func resolve<T, Tag: Hashable & Sendable, each Argument>(
    _ type: T.Type, requestTag tag: Tag, matching: TagMatching, arguments: repeat each Argument,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    if Tag.self == BindingTag?.self {
      return try resolve(
        T.self, tag: _identityCast(tag, to: BindingTag?.self), matching: matching,
        arguments: repeat each arguments, parent: parent)
    }
    return try resolve(
      T.self, tag: tag as Tag?, matching: matching, arguments: repeat each arguments,
      parent: parent)
  }

  @inlinable @inline(__always)
  func resolve<T, Tag: Hashable & Sendable, each Argument>(
    _ type: T.Type, tag: Tag?, matching: TagMatching, arguments: repeat each Argument,
    parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    if let tag, _isOptionalType(Tag.self) {
      return try resolve(
        T.self, flattenedTag: _flattenedTag(tag), matching: matching,
        arguments: repeat each arguments, parent: parent)
    }
    return try resolve(
      T.self, unflattenedTag: tag, matching: matching, arguments: repeat each arguments,
      parent: parent)
  }

  /// A request with runtime arguments whose tag is not an optional (or is none).
  ///
  /// Not part of the function above: a function that calls itself is never inlined.
  @inlinable @inline(__always)
  func resolve<T, Tag: Hashable & Sendable, each Argument>(
    _ type: T.Type, unflattenedTag tag: Tag?, matching: TagMatching,
    arguments: repeat each Argument, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    // Folds away where the call is specialized.
    if _isEmpty(repeat (each Argument).self) {
      guard let tag else { return try resolve(T.self, parent: parent) }
      return try resolve(T.self, tag: tag, matching: matching, parent: parent)
    }
    return try _Arguments.with((repeat each arguments)) { arguments throws(ResolutionError) -> T in
      try resolve(
        T.self, tag: tag, matching: matching, signature: (repeat each Argument).self,
        arguments: arguments, parent: parent)
    }
  }

  /// A resolve with runtime arguments: `arguments` points to a tuple of type `signature`.
  @inlinable
  func resolve<T, Tag: Hashable & Sendable>(
    _ type: T.Type, tag: Tag?, matching: TagMatching, signature: Any.Type,
    arguments: borrowing _Arguments, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    guard
      let slot = table.slot(for: ObjectIdentifier(T.self)),
      let entry = table.entry(at: slot),
      let found = entry.read({
        $0.argumentMember(
          tag: tag, signature: ObjectIdentifier(signature),
          allowsFallback: matching.allowsFallback)
      })
    else {
      return try resolveUnbound(
        T.self, tag: tag, matching: matching, signature: signature, arguments: arguments,
        parent: parent)
    }
    // The signature matched, so the binding was declared with exactly these argument types.
    return try found.member.with { binding throws(ResolutionError) -> T in
      if let recorder { recorder.record(from: parent, to: binding) }
      // An async binding with runtime arguments is awaited with `resolveAsync(_:tag:matching:arguments:)`.
      if binding.isAsync {
        throw .asyncBinding(binding, fallbackTag: nil, parent: parent, in: self)
      }
      guard found.fellBack, let tag else {
        return try makeInstance(of: binding, arguments: arguments, as: T.self, parent, nil)
      }
      return try RequestedTag.lending(tag) { tag throws(ResolutionError) -> T in
        try makeInstance(of: binding, arguments: arguments, as: T.self, parent, tag)
      }
    }
  }

  @usableFromInline @inline(never)
  func resolveUnbound<T, Tag: Hashable & Sendable>(
    _ type: T.Type, tag: Tag?, matching: TagMatching, signature: Any.Type,
    arguments: borrowing _Arguments, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    // The nearest ancestor with a binding for these arguments, found by a loop.
    var current = parentContainer
    while let ancestor = current {
      if let slot = ancestor.table.slot(for: ObjectIdentifier(T.self)),
        let entry = ancestor.table.entry(at: slot),
        entry.read({
          $0.argumentMember(
            tag: tag, signature: ObjectIdentifier(signature),
            allowsFallback: matching.allowsFallback) != nil
        })
      {
        return try ancestor.resolve(
          T.self, tag: tag, matching: matching, signature: signature, arguments: arguments,
          parent: parent)
      }
      current = ancestor.parentContainer
    }
    if !privateBindings.isEmpty,
      let binding = privateBinding(
        for: BindingKey(T.self, boxed: tag.map(BindingTag.init), argumentTypes: signature),
        parent: parent), !binding.isAsync
    {
      return try makeInstance(of: binding, arguments: arguments, as: T.self, parent, nil)
    }
    // `T?` with arguments: the binding of `T` that takes them, else nil.
    if tag == nil, _isOptional(T.self), let optional = optionalDependency(T.self) {
      return try Self.resolveIfBound(
        optional, as: T.self, in: self, signature: signature, arguments: arguments,
        parent: parent)
    }
    let requested = BindingKey(T.self, boxed: tag.map(BindingTag.init), argumentTypes: signature)
    throw missing(requested, triedFallback: tag != nil && matching.allowsFallback, parent: parent)
  }

  /// A new instance from a binding with runtime arguments.
  @inlinable
  func makeInstance<T>(
    of binding: AnyBinding, arguments: borrowing _Arguments, as _: T.Type,
    _ parent: borrowing ResolutionContext, _ fallbackTag: RequestedTag?
  ) throws(ResolutionError) -> T {
    try _InstanceSlot.building(T.self, layout: binding.layout) { out throws(ResolutionError) in
      try binding.make(
        arguments: arguments, into: out, in: self, parent: parent, fallbackTag: fallbackTag)
    }
  }

  /// `Optional.resolveIfBound` for a `T` that is the `Optional` type `optional`, returned as `T`
  /// without a dynamic cast: the existential is opened, not boxed (an `Optional` of a protocol
  /// does not fit an existential's inline buffer), and the value is reinterpreted as the same
  /// type under its other name.
  static func resolveIfBound<Opened: _OptionalDependency, T>(
    _: Opened.Type, as _: T.Type, in container: Container, tag: BindingTag?,
    matching: TagMatching, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    _identical(
      try Opened.resolveIfBound(in: container, tag: tag, matching: matching, parent: parent),
      as: T.self)
  }

  /// A `Provider` or `Lazy` of the type `derivable`, made by this container and returned as
  /// `T` (the same type) without boxing it in an existential or a dynamic cast.
  static func derived<Opened: DerivedFromContainer, T>(
    _: Opened.Type, as _: T.Type, from container: Container, tag: BindingTag?,
    graph: _GraphMemory?, scope: Scope?, privateTarget: AnyBinding?
  ) -> T {
    _identical(
      Opened.derive(
        from: container, tag: tag, graph: graph, scope: scope, privateTarget: privateTarget),
      as: T.self)
  }

  /// `resolveIfBound(_:as:in:tag:matching:parent:)` with runtime arguments.
  static func resolveIfBound<Opened: _OptionalDependency, T>(
    _: Opened.Type, as _: T.Type, in container: Container, signature: Any.Type,
    arguments: borrowing _Arguments, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T {
    _identical(
      try Opened.resolveIfBound(
        in: container, signature: signature, arguments: arguments, parent: parent),
      as: T.self)
  }

  /// A request for a type this container does not bind: its ancestors', a `Provider` or `Lazy`,
  /// or a missing-binding error.
  @usableFromInline @inline(never)
  func resolveUnbound<T>(_ type: T.Type, parent: borrowing ResolutionContext)
    throws(ResolutionError) -> T
  {
    if let owner = parentContainer?.untaggedOwner(of: T.self) {
      return try owner.with { owner throws(ResolutionError) -> T in
        try owner.resolve(T.self, parent: parent)
      }
    }
    if !privateBindings.isEmpty,
      let binding = privateBinding(for: BindingKey(T.self), parent: parent)
    {
      return try instance(of: binding, as: T.self, parent: parent, fallbackTag: nil)
    }
    if let derivation = derivation(of: T.self, tag: nil, allowsFallback: true, parent: parent) {
      return derive(T.self, derivation, tag: nil, parent: parent)
    }
    // `_isOptional` reads the metadata's kind; the conformance lookup only runs for an
    // optional, saving a failed request for any other type a lookup in the runtime's cache.
    if _isOptional(T.self), let optional = optionalDependency(T.self) {
      // Served by the wrapped type if bound, else nil: a concrete `Optional<Wrapped>`.
      return try Self.resolveIfBound(
        optional, as: T.self, in: self, tag: nil, matching: .exact, parent: parent)
    }
    throw missing(BindingKey(T.self), triedFallback: false, parent: parent)
  }

  /// `resolveIfBound(_:parent:)` for a type no table of the chain has an entry for: a binding
  /// the requester's module keeps private, a `Provider` or `Lazy`, or nothing.
  @usableFromInline @inline(never)
  func resolveUnboundIfBound<T>(
    _ type: T.Type, parent: borrowing ResolutionContext
  ) throws(ResolutionError) -> T? {
    if !privateBindings.isEmpty,
      let binding = privateBinding(for: BindingKey(T.self), parent: parent)
    {
      return try instance(of: binding, as: T.self, parent: parent, fallbackTag: nil)
    }
    return derivation(of: T.self, tag: nil, allowsFallback: true, parent: parent).map {
      derive(T.self, $0, tag: nil, parent: parent)
    }
  }

  /// The binding of `key` (or, for a tag that may fall back, of its untagged key) that the
  /// module of the binding whose factory makes this request keeps private, if any.
  ///
  /// Asked only once the table missed: a private binding is not in it.
  @usableFromInline @inline(never)
  func privateBinding(
    for key: BindingKey, allowsFallback: Bool = false, parent: borrowing ResolutionContext
  ) -> AnyBinding? {
    guard let module = parent.joined().requestingModule else { return nil }
    return privateBinding(for: key, allowsFallback: allowsFallback, in: module)
  }

  /// How this container makes a `T` it does not bind (``derivation(of:tag:allowsFallback:)``),
  /// else a `Provider` or `Lazy` of a binding the requesting factory's module keeps private.
  @inline(__always)
  func derivation<T>(
    of _: T.Type, tag: BindingTag?, allowsFallback: Bool, parent: borrowing ResolutionContext
  ) -> Derivation? {
    if let found = derivation(of: T.self, tag: tag, allowsFallback: allowsFallback) {
      return found
    }
    guard !privateBindings.isEmpty else { return nil }
    return privateDerivation(of: T.self, tag: tag, allowsFallback: allowsFallback, parent: parent)
  }

  /// A `Provider` or `Lazy` of a binding the requesting factory's module keeps private, for a
  /// `T` ``derivation(of:tag:allowsFallback:)`` found nothing for (private bindings are not in
  /// the table it asks).
  @inline(never)
  func privateDerivation<T>(
    of _: T.Type, tag: BindingTag?, allowsFallback: Bool, parent: borrowing ResolutionContext
  ) -> Derivation? {
    guard let module = parent.joined().requestingModule,
      // Memoized by the `derivation(of:)` that ran first; the memo may drop an entry.
      let derivable = derivableTypes.value(for: T.self)
        ?? (T.self as? any DerivedFromContainer.Type),
      let kept = privateBinding(
        for: BindingKey(derivable.wrappedType, boxed: tag), allowsFallback: allowsFallback,
        in: module)
    else { return nil }
    return Derivation(wrapper: derivable, privateTarget: kept)
  }

  /// The binding of `key` (or of its untagged key, when `allowsFallback`) that `module` keeps
  /// private.
  func privateBinding(
    for key: BindingKey, allowsFallback: Bool, in module: Module
  ) -> AnyBinding? {
    if let own = privateBindings[key]?.first(where: { $0.module === module }) { return own }
    guard allowsFallback, key.tag != nil else { return nil }
    let untagged = BindingKey(key.type, boxed: nil, argumentTypes: key.argumentTypes)
    return privateBindings[untagged]?.first { $0.module === module }
  }

  /// Whether this container or an ancestor binds `type` with runtime arguments.
  func bindsWithArguments(_ type: Any.Type) -> Bool {
    var current: Container? = self
    while let container = current {
      if let entry = container.table.storedEntry(for: ObjectIdentifier(type)),
        !entry.withArguments.isEmpty
      {
        return true
      }
      current = container.parentContainer
    }
    return false
  }

  /// Whether this container or an ancestor binds exactly `key`.
  @usableFromInline
  func binds(_ key: BindingKey) -> Bool { owner(of: key) != nil }

  /// Whether this container or an ancestor binds `type` untagged, without runtime arguments.
  func bindsUntagged(_ type: Any.Type) -> Bool { untaggedOwner(of: type) != nil }

  /// ``owner(of:)`` for `type`'s untagged key, without making the key: the nearest container
  /// of this chain (this one first) with an untagged binding of `type` without arguments.
  ///
  /// Unretained, with no reference counting on the walk: this container keeps its ancestors
  /// alive. (Once a `Provider` holds a container weakly, each retain of it goes through the
  /// runtime's side table, several times the cost of a plain one.)
  @usableFromInline
  func untaggedOwner(of type: Any.Type) -> _Unretained<Container>? {
    let identity = ObjectIdentifier(type)
    var current = _Unretained(self)
    while true {
      let (found, parent) = current.read { container in
        (
          container.table.untaggedMember(for: identity) != nil,
          container.parentContainer.map { _Unretained($0) }
        )
      }
      if found { return current }
      guard let parent else { return nil }
      current = parent
    }
  }

  /// The nearest container of this chain (this one first) that binds exactly `key`: a loop,
  /// so a chain of thousands of children costs no stack.
  @usableFromInline
  func owner(of key: BindingKey) -> Container? { lookup(key)?.owner }

  /// The binding of exactly `key` and the container that declares it.
  ///
  /// This container's own table is asked first, without reference counting on a walk; then
  /// its ancestors, nearest first, in a loop.
  func lookup(_ key: BindingKey) -> (binding: AnyBinding, owner: Container)? {
    if let binding = table.binding(for: key) { return (binding, self) }
    var current = parentContainer
    while let container = current {
      if let binding = container.table.binding(for: key) { return (binding, container) }
      current = container.parentContainer
    }
    return nil
  }

  /// A missing-binding error, or an argument mismatch when the type is bound with other
  /// arguments.
  ///
  /// Only runs on failure; near misses are computed when the report is read.
  @usableFromInline @inline(never)
  func missing(
    _ requested: BindingKey, triedFallback: Bool, parent: borrowing ResolutionContext
  ) -> ResolutionError {
    // A top-level request inside a factory reports the path of the chain it joined.
    let parent = parent.joined()
    if !privateBindings.isEmpty, let kept = privateBindings[requested]?.first {
      return .privateBinding(
        requested, keptBy: kept, requester: parent.requester, parent: parent, in: self)
    }
    if let entry = table.entry(for: ObjectIdentifier(requested.type)) {
      let boundWithOtherArguments =
        requested.argumentTypes == nil
        ? !entry.withArguments.isEmpty
        : (entry.untagged != nil || !entry.withArguments.isEmpty)
      // Bound with these very arguments under another tag: the tag is what is missing.
      let boundWithTheseArguments = requested.argumentTypes.map { signature in
        entry.withArguments.contains { binding in
          binding.key.argumentTypes.map { ObjectIdentifier($0) == ObjectIdentifier(signature) }
            ?? false
        }
      }
      if boundWithOtherArguments, boundWithTheseArguments != true {
        return .argumentMismatch(requested, parent: parent, in: self)
      }
    }
    return .missing(requested, triedFallback: triedFallback, parent: parent, in: self)
  }
}

extension Container {
  /// The instance of a built persistent binding of `T`, if there is one: what `resolveAsync`
  /// reads first, with no task and no suspension.
  @inlinable @inline(__always)
  func builtInstance<T>(_: T.Type) -> T? {
    guard let found = table.untaggedMember(for: ObjectIdentifier(T.self)) else {
      return nil
    }
    return found.read { binding -> T? in
      guard binding.isReady else { return nil }
      return binding.storage.load(as: T.self)
    }
  }
}

extension Container {
  /// The binding for `type` with runtime arguments of type `signature` under `tag` (else,
  /// when `allowsFallback`, the untagged one), in this container or the nearest ancestor that
  /// has one, as the synchronous resolve finds it; and the container that declared it.
  func argumentBinding(
    for type: Any.Type, tag: BindingTag? = nil, allowsFallback: Bool = false,
    signature: Any.Type
  ) -> (container: Container, binding: AnyBinding)? {
    var current: Container? = self
    while let container = current {
      if let slot = container.table.slot(for: ObjectIdentifier(type)),
        let entry = container.table.entry(at: slot),
        let found = entry.read({
          $0.argumentMember(
            tag: tag, signature: ObjectIdentifier(signature), allowsFallback: allowsFallback)
        })
      {
        return (container, found.member.object)
      }
      current = container.parentContainer
    }
    return nil
  }
}

/// Where a request enters the engine, as a ``Resolving`` receiver gives it: the container (not
/// retained: the receiver keeps it alive for the call), and the chain and scope the request is
/// made in — a factory's frame, or the async chain of an async factory's ``AsyncResolver``.
///
/// Plain values, so the resolve forms declared once for every receiver specialize as the
/// receiver's own methods would.
@safe
@frozen
public struct _RequestPoint: ~Copyable {
  @usableFromInline let container: _Unretained<Container>
  @usableFromInline let frame: _Frame?
  @usableFromInline let scope: _Unretained<Scope>?
  @usableFromInline let callerIsolation: ObjectIdentifier?
  /// The async chain a request continues: an async factory's, through its ``AsyncResolver``.
  @usableFromInline let path: AsyncPath?
  /// What keeps the container and scope alive for the request, when the receiver holds them
  /// weakly (a ``ContainerReference``); `nil` for the receivers that keep them themselves.
  @usableFromInline let owner: AnyObject?

  /// A top-level request to `container`, in `scope` if any, by a caller isolated to
  /// `isolation`, below the async chain `path` if any.
  @inlinable @inline(__always)
  init(
    container: Container, scope: Scope?, isolation: (any Actor)?, path: AsyncPath? = nil,
    owner: AnyObject? = nil
  ) {
    self.container = _Unretained(container)
    frame = nil
    self.scope = scope.map { _Unretained($0) }
    callerIsolation = isolation.map(ObjectIdentifier.init)
    self.path = path
    self.owner = owner
  }

  /// A request through a factory's resolver: it continues `context`'s chain.
  @inlinable @inline(__always)
  init(_ container: _Unretained<Container>, continuing context: borrowing ResolutionContext) {
    self.container = container
    frame = context.frame
    scope = context.requestScope
    callerIsolation = context.callerIsolation
    path = nil
    owner = nil
  }

  /// The chain the request is made in.
  @inlinable @inline(__always)
  var context: ResolutionContext {
    ResolutionContext(frame: frame?.duplicated(), scope: scope, callerIsolation: callerIsolation)
  }

  /// The container, retained: for a request that suspends.
  @inlinable @inline(__always)
  var retainedContainer: Container { container.object }

  /// The instance of the container's built persistent binding of `T`, if there is one.
  @inlinable @inline(__always)
  func builtInstance<T>(_: T.Type) -> T? {
    container.read { $0.builtInstance(T.self) }
  }

  /// The scope the request is made in, if any.
  @inlinable @inline(__always)
  var requestScope: Scope? { scope?.object }

  /// Runs a synchronous request for `type` (with `tag`), calling `body`.
  ///
  /// `body` gets the container and the chain. Below an async factory, the request shares that
  /// async resolution's `graph` instances and an error carries the async path above it.
  @inlinable @inline(__always)
  func run<R, Tag: Hashable & Sendable>(
    _ type: Any.Type, tag: Tag,
    _ body: (Container, borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    if let path {
      // The result comes back through this (specialized) frame, so that the engine code below
      // is not generic over it: code generic over an unknown result looks up its `Result`
      // metadata at run time (about 600 instructions a call, for a stack allocation).
      var result: R?
      try run(below: path, type, tag: _requestTag(tag)) {
        container, context throws(ResolutionError) in result = try body(container, context)
      }
      return result!
    }
    return try container.with { container throws(ResolutionError) -> R in
      try body(container, context)
    }
  }

  /// ``run(_:tag:_:)`` below an async factory's chain.
  @usableFromInline
  func run(
    below path: AsyncPath, _ type: Any.Type, tag: BindingTag?,
    _ body: (Container, borrowing ResolutionContext) throws(ResolutionError) -> Void
  ) throws(ResolutionError) {
    let container = container.object
    do {
      // Below the creation of a container-wide instance, the captive check must see it: the
      // resolution starts from a marker frame of that binding, counted as a shared creation.
      if path.hasCaptor, let captor = path.captor {
        return try _ThreadState.creatingShared { () throws(ResolutionError) in
          try run(below: path, type, tag: tag, in: container, marker: captor, body)
        }
      }
      // With private bindings, the async factory's binding marks the chain: a request below it
      // sees what its module keeps private.
      let marker = container.privateBindings.isEmpty ? nil : path.binding
      try run(below: path, type, tag: tag, in: container, marker: marker, body)
    } catch {
      throw error.below(path.steps)
    }
  }

  private func run(
    below path: AsyncPath, _ type: Any.Type, tag: BindingTag?, in container: Container,
    marker: AnyBinding?,
    _ body: (Container, borrowing ResolutionContext) throws(ResolutionError) -> Void
  ) throws(ResolutionError) {
    guard container.hasGraphBindings else {
      // A verification's recorder needs a frame to see the async factory above the request.
      guard marker != nil || container.recorder != nil else {
        return try body(container, context)
      }
      return try ResolutionContext.marked(
        container, scope: scope, marker: marker, callerIsolation: callerIsolation
      ) { context throws(ResolutionError) in try body(container, context) }
    }
    // One async resolution is one graph: its synchronous resolves share their instances, one
    // at a time (`_GraphMemory.alone`).
    try _GraphMemory.run(
      type, tag: tag, in: container, scope: requestScope, memory: path.graph, marker: marker,
      callerIsolation: callerIsolation
    ) { context throws(ResolutionError) in try body(container, context) }
  }
}

extension ResolutionContext {
  /// The context a request point starts: in `scope`, for a caller with `callerIsolation`,
  /// below `frame` when the request continues a chain.
  @inlinable
  init(
    frame: consuming _Frame?, scope: _Unretained<Scope>?,
    callerIsolation: ObjectIdentifier? = nil
  ) {
    heldFrame = frame
    requestScope = scope
    self.callerIsolation = callerIsolation
  }
}

extension Container {
  /// Throws if the container was shut down: the check of every public resolve, one atomic
  /// load.
  @inlinable @inline(__always)
  func checkOpen<T>(_: T.Type) throws(ResolutionError) {
    if isClosedInChain { throw shutDownError(T.self) }
  }

  /// Whether this container or an ancestor was shut down: a child of a shut-down container
  /// refuses every request, since it could reach the parent's disposed instances.
  @inlinable
  var isClosedInChain: Bool {
    if disposals.isClosed { return true }
    // Most containers have no parent: tested first, since the walk retains each ancestor (a
    // call even for none).
    return parentContainer != nil && isAncestorClosed
  }

  /// Whether an ancestor of this container was shut down.
  @usableFromInline @inline(never)
  var isAncestorClosed: Bool {
    var current = parentContainer
    while let ancestor = current {
      if ancestor.disposals.isClosed { return true }
      current = ancestor.parentContainer
    }
    return false
  }
}
